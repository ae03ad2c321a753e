import { appOrigin } from '../../../lib/app-origin';
import type { Message, StoredRule } from '@afterword/db/schema';
import type { MessageStatus } from '../../../contracts/messages';
import type { ServiceContext } from '../../../env';
import { log } from '../../../lib/logger';
import { consentWithdrawnSql } from '../../legal/consent-state';
import { enqueueOwnerNotice, insertOwnerNotice } from '../../notify/enqueue-owner-notice';
import { isUniqueViolation } from '../../../lib/constraint-violation';

export type TransitionCause =
  | 'created'
  | 'rule_fired'
  | 'deliver_at'
  | 'window_ended'
  | 'check_in'
  | 'manual'
  | 'cancelled_by_sender'
  | 'delivered'
  | 'failed'
  | 'recipient_left';

export interface OwnerNoticeDraft {
  kind: 'message_armed' | 'message_released' | 'message_failed';
  subject: string;
  text: string;
}

export interface MessageChange {
  to: MessageStatus;
  cause: TransitionCause;
  detail: string;
  /** A repeated cause with the same key (e.g. a redelivered canary event) changes nothing. */
  dedupeKey?: string;
  set?: {
    armed_at?: number | null;
    cancel_deadline?: number | null;
    released_at?: number | null;
    finished_at?: number | null;
    /** When the message's clock must next wake (messages.timer_due_at: what the reconciler's scans read). */
    timer_due_at?: number | null;
    rules?: StoredRule[];
  };
  /** Release: open the delivery of the message's channel and log its copy in the recipient's inbox. */
  release?: boolean;
  notice?: OwnerNoticeDraft;
  /** More writes that happen only with the transition (given the guard that says so), in its batch. */
  also?: (ifTransition: { sql: string; params: unknown[] }) => D1PreparedStatement[];
}

export interface CommitResult {
  applied: boolean;
  transitionId: string;
  deliveryId?: string;
}

/**
 * The one writer of a message's state. One D1 batch (atomic): a compare-and-set on `version`, the
 * transition row (only if the update won), and what the transition opens — the delivery row, the inbox
 * log line, the owner notice — each only if the transition row exists. A loser of a race, a stale read
 * or a repeated event changes nothing and learns so from `applied`. Queue sends follow the batch;
 * a send lost in a crash is repaired by the reconciler (pending rows older than a minute).
 */
export async function commitTransition(ctx: ServiceContext, message: Message, change: MessageChange): Promise<CommitResult> {
  const db = ctx.env.DB;
  const now = ctx.now().getTime();
  const transitionId = crypto.randomUUID();
  const columns: string[] = ['status = ?', 'version = version + 1', 'updated_at = ?'];
  const values: unknown[] = [change.to, now];
  for (const [column, value] of Object.entries(change.set ?? {})) {
    columns.push(`${column} = ?`);
    values.push(column === 'rules' ? JSON.stringify(value) : value);
  }
  const ifTransition = 'WHERE EXISTS (SELECT 1 FROM message_transitions WHERE id = ?)';
  // Arming and releasing also need the sender's messages consent, in the same compare-and-set: a
  // withdrawal racing a clock run or a canary event wins, and the message stays paused.
  const consentHeld = change.to === 'armed' || change.to === 'releasing' ? ` AND NOT ${consentWithdrawnSql('messages.sender_id', 'messages')}` : '';
  const statements: D1PreparedStatement[] = [
    db.prepare(`UPDATE messages SET ${columns.join(', ')} WHERE id = ? AND version = ?${consentHeld}`).bind(...values, message.id, message.version),
    db
      .prepare(
        `INSERT INTO message_transitions (id, message_id, from_status, to_status, cause, detail, dedupe_key, created_at)
         SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE changes() = 1`,
      )
      .bind(transitionId, message.id, message.status, change.to, change.cause, change.detail, change.dedupeKey ?? null, now),
  ];
  let deliveryId: string | undefined;
  if (change.release) {
    deliveryId = crypto.randomUUID();
    statements.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO deliveries (id, message_id, channel, status, attempts, next_attempt_at, created_at, updated_at)
           SELECT ?, ?, ?, 'pending', 0, ?, ?, ? ${ifTransition}`,
        )
        .bind(deliveryId, message.id, message.delivery_method, now, now, now, transitionId),
      db
        .prepare(`INSERT INTO delivery_log (id, message_id, channel, attempt, success, created_at) SELECT ?, ?, 'inbox', 1, 1, ? ${ifTransition}`)
        .bind(crypto.randomUUID(), message.id, now, transitionId),
    );
  }
  if (change.also) statements.push(...change.also({ sql: ifTransition, params: [transitionId] }));
  if (change.notice) {
    statements.push(
      insertOwnerNotice(
        db,
        { id: transitionId, userId: message.sender_id, ...change.notice, link: messageLink(ctx, message.id), at: now },
        { sql: ifTransition, params: [transitionId] },
      ),
    );
  }

  let applied: boolean;
  try {
    const results = await db.batch(statements);
    applied = (results[1]?.meta.changes ?? 0) === 1;
  } catch (err) {
    // The dedupe key was seen before: the whole batch rolled back, nothing changed.
    if (change.dedupeKey && isUniqueViolation(err)) return { applied: false, transitionId };
    throw err;
  }
  if (!applied) return { applied, transitionId };

  if (deliveryId) await enqueue(ctx, 'DELIVERIES', { type: 'deliver', delivery_id: deliveryId });
  if (change.notice) await enqueueOwnerNotice(ctx, transitionId);
  return { applied, transitionId, deliveryId };
}

export const messageLink = (ctx: ServiceContext, messageId: string) => `${appOrigin(ctx.env)}/app/messages/view/${messageId}`;

async function enqueue(ctx: ServiceContext, queue: 'DELIVERIES', body: Record<string, unknown>) {
  try {
    await ctx.env[queue].send(body, { contentType: 'json' });
  } catch (err) {
    log.error('enqueue failed; the reconciler will resend', { queue, type: String(body.type), error: String(err) });
  }
}
