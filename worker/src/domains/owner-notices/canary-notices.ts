import type { CanaryNoticeJob } from '../../contracts/jobs';
import type { ServiceContext } from '../../env';
import { appOrigin } from '../../lib/app-origin';
import { insertOwnerNotice } from '../notify/enqueue-owner-notice';
import { canaryNoticeText } from '../canary/canary-notice-texts';
import { sendOwnerNotice } from './send-owner-notice';
import { activeGuardiansSql, messagesWaitingSql } from './stakes';

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
              ${messagesWaitingSql('u.id')} AS messages_waiting,
              ${activeGuardiansSql('u.id')} AS guardians,
              EXISTS (SELECT 1 FROM owner_notices WHERE id = ?2) AS written
       FROM users u JOIN canaries c ON c.user_id = u.id AND c.id = ?3 AND c.active = 1 WHERE u.id = ?1`,
    )
    .bind(job.user_id, job.transition_id, job.canary_id)
    .first<{ time_zone: string; messages_waiting: number; guardians: number; written: number }>();
  if (!facts) return 'none' as const;
  if (!facts.written) {
    const link = `${appOrigin(ctx.env)}/app/canary-status`;
    const { subject, text } = canaryNoticeText(job, { messagesWaiting: facts.messages_waiting, guardians: facts.guardians }, link, facts.time_zone);
    // Once: a job read twice at once writes one row.
    await insertOwnerNotice(
      db,
      { id: job.transition_id, userId: job.user_id, kind: `canary_${job.kind}`, subject, text, link, at: ctx.now().getTime(), canaryId: job.canary_id },
      { sql: 'WHERE NOT EXISTS (SELECT 1 FROM owner_notices WHERE id = ?)', params: [job.transition_id] },
    ).run();
  }
  return sendOwnerNotice(ctx, job.transition_id);
}
