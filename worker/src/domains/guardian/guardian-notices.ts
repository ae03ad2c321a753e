import { schema } from '@afterword/db';
import { and, eq } from 'drizzle-orm';
import { createChannels, outboxChannels, type Channels } from '../../channels/registry';
import type { GuardianNoticeJob } from '../../contracts/jobs';
import type { ServiceContext } from '../../env';
import { sendInBatches } from '../../lib/queue-batches';
import { log } from '../../lib/logger';

export interface GuardianNoticeText {
  kind: string;
  subject: string;
  text: string;
  sandbox: boolean;
  at: number;
}

/**
 * The INSERT of one notice to one guardian, for the caller's batch, written only when `when` holds.
 * The link goes in the text: the email channel words a `link` as "your inbox", which this is not.
 */
export function noticeToGuardian(
  db: D1Database,
  ownerId: string,
  guardianId: string,
  n: GuardianNoticeText,
  when: { sql: string; params?: unknown[] } = { sql: '' },
) {
  return db
    .prepare(
      `INSERT INTO guardian_notices (id, owner_id, guardian_id, kind, subject, text, link, sandbox, status, created_at)
       SELECT ?, ?, ?, ?, ?, ?, NULL, ?, 'pending', ? ${when.sql} RETURNING id`,
    )
    .bind(crypto.randomUUID(), ownerId, guardianId, n.kind, n.subject, n.text, n.sandbox ? 1 : 0, n.at, ...(when.params ?? []));
}

/**
 * The INSERT of one notice to each active guardian of the owner, written only when `condition` (SQL
 * that may follow `AND`) holds. `RETURNING id`, so the caller queues exactly what was written.
 */
export function noticeToActiveGuardians(db: D1Database, ownerId: string, n: GuardianNoticeText, condition: { sql: string; params?: unknown[] } = { sql: '1' }) {
  return db
    .prepare(
      `INSERT INTO guardian_notices (id, owner_id, guardian_id, kind, subject, text, link, sandbox, status, created_at)
       SELECT lower(hex(randomblob(16))), owner_id, id, ?, ?, ?, NULL, ?, 'pending', ?
       FROM guardians WHERE owner_id = ? AND status = 'active' AND ${condition.sql} RETURNING id`,
    )
    .bind(n.kind, n.subject, n.text, n.sandbox ? 1 : 0, n.at, ownerId, ...(condition.params ?? []));
}

/** Queues written notices; if the queue refuses, the reconciler re-sends pending ones. */
export async function enqueueGuardianNotices(ctx: Pick<ServiceContext, 'env'>, ids: string[]): Promise<void> {
  if (!ids.length) return;
  try {
    await sendInBatches(
      ctx.env.JOBS,
      ids.map((id) => ({ type: 'guardian_notice', notice_id: id }) satisfies GuardianNoticeJob),
    );
  } catch (err) {
    log.error('enqueue failed; the reconciler will resend', { queue: 'JOBS', type: 'guardian_notice', error: String(err) });
  }
}

/**
 * The JOBS consumer of guardian notices: one email to the guardian's address (the channel
 * docs/server-rules.md "Guardians and death confirmation" names for invitations; guardians have no preferences
 * with us). Locally the outbox row belongs to the guardian's account — the one that accepted, or for an
 * invitation the account with that address, if any. A sandbox notice goes to the outbox whatever the
 * transports. Marked sent after sending: a crash re-sends, and the idempotency key lets the outbox and
 * providers drop the repeat. The write that marks it lets go of its body (`text` becomes empty), as an owner's
 * notice does (docs/decisions/notifications.md "A sent notice keeps its subject, not its body"): an invitation's
 * body carries its accept link, whose token is otherwise stored only as a hash.
 */
export async function sendGuardianNotice(ctx: ServiceContext, noticeId: string, channels?: Channels): Promise<'sent' | 'none'> {
  const [row] = await ctx.db
    .select({ notice: schema.guardianNotices, email: schema.guardians.email, account: schema.guardians.guardian_user_id })
    .from(schema.guardianNotices)
    .innerJoin(schema.guardians, eq(schema.guardians.id, schema.guardianNotices.guardian_id))
    .where(eq(schema.guardianNotices.id, noticeId))
    .limit(1);
  if (row?.notice.status !== 'pending') return 'none';
  const { notice } = row;
  let account = row.account;
  if (!account) {
    const [u] = await ctx.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, row.email)).limit(1);
    account = u?.id ?? null;
  }
  const via = channels ?? (notice.sandbox ? outboxChannels(ctx) : createChannels(ctx));
  const result = await via.email(
    { email: row.email },
    { idempotencyKey: `guardian-notice:${notice.id}`, recipientUserId: account, subject: notice.subject, text: notice.text },
  );
  if (!result.ok && result.retryable) throw new Error(`guardian notice not delivered: ${result.error}`);
  if (!result.ok) log.warn('guardian notice refused by the channel', { notice_id: notice.id, kind: notice.kind, error: result.error });
  await ctx.db
    .update(schema.guardianNotices)
    .set({ status: 'sent', sent_at: ctx.now(), text: '' })
    .where(and(eq(schema.guardianNotices.id, notice.id), eq(schema.guardianNotices.status, 'pending')));
  return 'sent';
}
