import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import type { OwnerNoticeJob } from '../../contracts/jobs';

export interface PendingOwnerNotice {
  id: string;
  userId: string;
  kind: string;
  subject: string;
  text: string;
  link: string | null;
  /** ms: when it is written and first due. */
  at: number;
  /** Caused by a sandbox API key: shown in the local outbox only, never sent. */
  outboxOnly?: boolean;
  /** A canary's warning: the canary whose clock waits for its delivery (send-owner-notice.ts reports it). */
  canaryId?: string;
}

/**
 * The INSERT of a pending owner notice, for the caller's batch, written only when `when` holds — a SQL
 * tail such as `WHERE changes() = 1` (the previous statement did change something) with its parameters —
 * so a notice exists exactly when the change it reports was made.
 */
export function insertOwnerNotice(db: D1Database, notice: PendingOwnerNotice, when: { sql: string; params?: unknown[] }): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO owner_notices (id, user_id, kind, subject, text, link, outbox_only, status, due_at, created_at, canary_id)
       SELECT ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ? ${when.sql}`,
    )
    .bind(
      notice.id,
      notice.userId,
      notice.kind,
      notice.subject,
      notice.text,
      notice.link,
      notice.outboxOnly ? 1 : 0,
      notice.at,
      notice.at,
      notice.canaryId ?? null,
      ...(when.params ?? []),
    );
}

/** Queues the sending of a written notice; if the queue refuses, the reconciler resends pending notices. */
export async function enqueueOwnerNotice(ctx: Pick<ServiceContext, 'env'>, noticeId: string): Promise<void> {
  try {
    await ctx.env.JOBS.send({ type: 'owner_notice', notice_id: noticeId } satisfies OwnerNoticeJob, { contentType: 'json' });
  } catch (err) {
    log.error('enqueue failed; the reconciler will resend', { queue: 'JOBS', type: 'owner_notice', error: String(err) });
  }
}
