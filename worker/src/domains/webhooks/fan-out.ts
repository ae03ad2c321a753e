import { schema } from '@afterword/db';
import { and, eq } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import type { MissedCheckinsEvent } from '../canary/emit-missed-events';
import type { WebhookJob } from './deliver';
import { missedCheckinsPayload } from './payload';
import { newWebhookMessageId } from './signature';

/**
 * The `missed_checkins` subscriber: one delivery per active endpoint of the event's user subscribed to it,
 * each with its own `webhook-id` and its body fixed now. `INSERT OR IGNORE` on unique (webhook_id, event_id)
 * makes a redelivered event add nothing; `sandbox` marks every body `data.sandbox: true` (a simulated event); only rows inserted now are queued, and a crash between the insert
 * and the queueing is repaired by the reconciler (reconcile.ts), which re-sends pending deliveries.
 */
export async function fanOutMissedCheckins(ctx: ServiceContext, event: MissedCheckinsEvent, opts: { sandbox?: boolean } = {}): Promise<number> {
  const endpoints = await ctx.db
    .select({ id: schema.webhooks.id, sandbox: schema.webhooks.sandbox })
    .from(schema.webhooks)
    .where(and(eq(schema.webhooks.user_id, event.user_id), eq(schema.webhooks.event, 'missed_checkins'), eq(schema.webhooks.status, 'active')));
  if (!endpoints.length) return 0;
  const now = ctx.now().getTime();
  const db = ctx.env.DB;
  const statements = endpoints.map((w) =>
    db
      .prepare(
        `INSERT OR IGNORE INTO webhook_deliveries (id, webhook_id, event_id, event, message_id, payload, status, attempts, next_attempt_at, created_at, updated_at)
         VALUES (?, ?, ?, 'missed_checkins', ?, ?, 'pending', 0, ?, ?, ?) RETURNING id`,
      )
      .bind(
        crypto.randomUUID(),
        w.id,
        event.event_id,
        newWebhookMessageId(),
        JSON.stringify(missedCheckinsPayload(event, { sandbox: opts.sandbox || w.sandbox })),
        now,
        now,
        now,
      ),
  );
  const results = await db.batch<{ id: string }>(statements);
  const inserted = results.flatMap((r) => r.results.map((row) => row.id));
  for (let i = 0; i < inserted.length; i += 100) {
    await ctx.env.DELIVERIES.sendBatch(
      inserted.slice(i, i + 100).map((id) => ({ body: { type: 'webhook', delivery_id: id } satisfies WebhookJob, contentType: 'json' as const })),
    );
  }
  if (inserted.length) log.info('webhook deliveries created', { event_id: event.event_id, user_id: event.user_id, count: inserted.length });
  return inserted.length;
}
