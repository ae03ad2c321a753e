import type { CanaryNoticeJob } from '../../contracts/jobs';
import type { ServiceContext } from '../../env';
import { appOrigin } from '../../lib/app-origin';
import { sendOwnerNotice } from '../messages/notices/send-owner-notice';
import { canaryNoticeText } from './canary-notice-texts';

/**
 * The JOBS consumer of a canary's notices (its object's warnings and first miss): writes the owner
 * notice once — its id is the timer event's, so the object's re-sends of an undelivered warning and the
 * queue's redeliveries write nothing twice — and sends it on the owner's channels (send-owner-notice.ts),
 * which reports a warning's delivery back to the canary's object. A canary deleted meanwhile is told nothing.
 */
export async function sendCanaryNotice(ctx: ServiceContext, job: CanaryNoticeJob) {
  const db = ctx.env.DB;
  const facts = await db
    .prepare(
      `SELECT u.time_zone AS time_zone,
              (SELECT count(*) FROM messages WHERE sender_id = u.id AND status IN ('scheduled', 'armed')) AS messages_waiting,
              (SELECT count(*) FROM guardians WHERE owner_id = u.id AND status = 'active') AS guardians,
              EXISTS (SELECT 1 FROM owner_notices WHERE id = ?2) AS written
       FROM users u JOIN canaries c ON c.user_id = u.id AND c.id = ?3 AND c.active = 1 WHERE u.id = ?1`,
    )
    .bind(job.user_id, job.transition_id, job.canary_id)
    .first<{ time_zone: string; messages_waiting: number; guardians: number; written: number }>();
  if (!facts) return 'none' as const;
  if (!facts.written) {
    const link = `${appOrigin(ctx.env)}/app/canary-status`;
    const { subject, text } = canaryNoticeText(job, { messagesWaiting: facts.messages_waiting, guardians: facts.guardians }, link, facts.time_zone);
    const now = ctx.now().getTime();
    await db
      .prepare(
        `INSERT OR IGNORE INTO owner_notices (id, user_id, kind, subject, text, link, outbox_only, status, due_at, created_at, canary_id)
         VALUES (?, ?, ?, ?, ?, ?, 0, 'pending', ?, ?, ?)`,
      )
      .bind(job.transition_id, job.user_id, `canary_${job.kind}`, subject, text, link, now, now, job.canary_id)
      .run();
  }
  return sendOwnerNotice(ctx, job.transition_id);
}
