import { schema } from '@afterword/db';
import { and, eq } from 'drizzle-orm';
import type { WebhookEvent } from '../../contracts/webhooks';
import type { ServiceContext } from '../../env';
import { sendInBatches } from '../../lib/queue-batches';
import { log } from '../../lib/logger';
import type { MissedCheckinsEvent } from '../../contracts/jobs';
import type { WebhookJob } from './deliver';
import { missedCheckinsPayload } from './payload';
import { newWebhookMessageId } from './signature';

/**
 * One event to every active endpoint of `userId` subscribed to it: one delivery each, with its own
 * `webhook-id` and its body fixed now. `INSERT OR IGNORE` on unique (webhook_id, event_id) makes a
 * redelivered event add nothing; `payload(sandbox)` builds the body, marked `data.sandbox: true` for a
 * sandbox event or a sandbox endpoint. Only rows inserted now are queued, and a crash between the insert
 * and the queueing is repaired by the reconciler (reconcile.ts), which re-sends pending deliveries.
 */
export async function fanOutEvent(
  ctx: ServiceContext,
  e: { userId: string; event: WebhookEvent; eventId: string; sandbox?: boolean; payload: (sandbox: boolean) => unknown },
): Promise<number> {
  const endpoints = await ctx.db
    .select({ id: schema.webhooks.id, sandbox: schema.webhooks.sandbox })
    .from(schema.webhooks)
    .where(and(eq(schema.webhooks.user_id, e.userId), eq(schema.webhooks.event, e.event), eq(schema.webhooks.status, 'active')));
  if (!endpoints.length) return 0;
  const now = ctx.now().getTime();
  const db = ctx.env.DB;
  const statements = endpoints.map((w) =>
    db
      .prepare(
        `INSERT OR IGNORE INTO webhook_deliveries (id, webhook_id, event_id, event, message_id, payload, status, attempts, next_attempt_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?) RETURNING id`,
      )
      .bind(crypto.randomUUID(), w.id, e.eventId, e.event, newWebhookMessageId(), JSON.stringify(e.payload(!!e.sandbox || w.sandbox)), now, now, now),
  );
  const results = await db.batch<{ id: string }>(statements);
  const inserted = results.flatMap((r) => r.results.map((row) => row.id));
  await sendInBatches(
    ctx.env.DELIVERIES,
    inserted.map((id) => ({ type: 'webhook', delivery_id: id }) satisfies WebhookJob),
  );
  if (inserted.length) log.info('webhook deliveries created', { event: e.event, event_id: e.eventId, user_id: e.userId, count: inserted.length });
  return inserted.length;
}

/** The `missed_checkins` subscriber (wiring/missed-event-subscribers.ts). */
export function fanOutMissedCheckins(ctx: ServiceContext, event: MissedCheckinsEvent, opts: { sandbox?: boolean } = {}): Promise<number> {
  return fanOutEvent(ctx, {
    userId: event.user_id,
    event: 'missed_checkins',
    eventId: event.event_id,
    ...(opts.sandbox ? { sandbox: true } : {}),
    payload: (sandbox) => missedCheckinsPayload(event, { sandbox }),
  });
}
