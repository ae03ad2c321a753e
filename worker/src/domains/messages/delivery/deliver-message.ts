import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { createChannels, type Channels } from '../../../channels/registry';
import type { ChannelKind, DeliveryResult } from '../../../channels/types';
import { classifyFailure } from './classify-failure';
import type { ServiceContext } from '../../../env';
import { log } from '../../../lib/logger';
import { messageLink } from '../release/commit-transition';
import { composeDelivery } from './compose';
import { QUEUE_MAX_DELAY_SECONDS, retryDelaySeconds } from './retry-policy';
import { sendThroughChannel } from './send-through-channel';
import { settleMessage } from './settle-message';

/** How long one attempt may hold its delivery before another worker may take it over (adapters time out at 10 s). */
export const DELIVERY_LEASE_MS = 120_000;

import type { DeliverJob } from '../../../contracts/jobs';
export type { DeliverJob };

interface ClaimedDelivery {
  id: string;
  message_id: string;
  attempts: number;
}

const recipient = alias(schema.users, 'recipient');

/**
 * The DELIVERIES consumer: one attempt of one (message, channel). The attempt first claims the delivery
 * row with a lease (a compare-and-set), so a redelivered or duplicated job finds it delivered, failed,
 * leased or not yet due and does nothing — at most one attempt runs at a time and a delivered channel is
 * never sent again. Providers also get a stable idempotency key, so a crash between sending and recording
 * re-sends a duplicate they (and the outbox) drop. Every attempt is a delivery-log row.
 */
export async function deliverMessage(ctx: ServiceContext, deliveryId: string, channels: Channels = createChannels(ctx)): Promise<void> {
  const now = ctx.now().getTime();
  const claimed = await ctx.env.DB.prepare(
    `UPDATE deliveries SET status = 'sending', attempts = attempts + 1, lease_until = ?2, updated_at = ?1
     WHERE id = ?3 AND ((status IN ('pending', 'retrying') AND next_attempt_at <= ?1) OR (status = 'sending' AND lease_until < ?1))
     RETURNING id, message_id, attempts`,
  )
    .bind(now, now + DELIVERY_LEASE_MS, deliveryId)
    .first<ClaimedDelivery>();
  if (!claimed) return requeueIfEarly(ctx, deliveryId, now);

  const [row] = await ctx.db
    .select({ message: schema.messages, recipient, senderEmail: schema.users.email, senderName: schema.users.display_name })
    .from(schema.messages)
    .innerJoin(schema.users, eq(schema.users.id, schema.messages.sender_id))
    .innerJoin(recipient, eq(recipient.id, schema.messages.recipient_user_id))
    .where(eq(schema.messages.id, claimed.message_id))
    .limit(1);
  if (!row) return; // deleted with its account: the delivery row went with it

  const senderLabel = row.senderName.trim() || row.senderEmail;
  const out = composeDelivery(row.message, senderLabel, messageLink(ctx, row.message.id), `delivery:${claimed.id}`);
  let result: DeliveryResult;
  try {
    result = await sendThroughChannel(ctx, channels, row.message.delivery_method, row.recipient, out);
  } catch (err) {
    // Adapters answer failures as results; a throw is unexpected, and treated as retryable.
    result = { ok: false, retryable: true, reason: 'internal', error: `unexpected error: ${err instanceof Error ? err.message : String(err)}` };
  }
  await recordAttempt(ctx, claimed, row.message.delivery_method, result);
}

async function recordAttempt(ctx: ServiceContext, claimed: ClaimedDelivery, channel: string, result: DeliveryResult) {
  const db = ctx.env.DB;
  const now = ctx.now().getTime();
  const delay = result.ok || !result.retryable ? null : retryDelaySeconds(claimed.attempts);
  const status = result.ok ? 'delivered' : delay != null ? 'retrying' : 'failed';
  // The sender reads a classified sentence; the adapter's own words go only to the log, under the delivery id.
  const error = result.ok ? null : classifyFailure(result, channel as ChannelKind);
  await db.batch([
    db
      .prepare(`INSERT INTO delivery_log (id, message_id, delivery_id, channel, attempt, success, error, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
      .bind(crypto.randomUUID(), claimed.message_id, claimed.id, channel, claimed.attempts, result.ok ? 1 : 0, error, now),
    db
      .prepare(
        `UPDATE deliveries SET status = ?, next_attempt_at = ?, lease_until = NULL, last_error = ?, provider_id = ?, updated_at = ?
         WHERE id = ? AND status = 'sending' AND attempts = ?`,
      )
      .bind(status, delay != null ? now + delay * 1000 : now, error, result.ok ? (result.providerId ?? null) : null, now, claimed.id, claimed.attempts),
  ]);
  if (result.ok) log.info('delivery attempt', { delivery_id: claimed.id, channel, attempt: claimed.attempts, ok: true, status });
  else log.warn('delivery attempt failed', { delivery_id: claimed.id, channel, attempt: claimed.attempts, status, error: result.error.slice(0, 500) });
  if (delay != null) {
    await ctx.env.DELIVERIES.send({ type: 'deliver', delivery_id: claimed.id } satisfies DeliverJob, { contentType: 'json', delaySeconds: delay });
  } else {
    await settleMessage(ctx, claimed.message_id);
  }
}

/** A job that arrived before its attempt is due (a delay cut short, a duplicate): wait again. */
async function requeueIfEarly(ctx: ServiceContext, deliveryId: string, now: number) {
  const [d] = await ctx.db
    .select({ status: schema.deliveries.status, next: schema.deliveries.next_attempt_at })
    .from(schema.deliveries)
    .where(eq(schema.deliveries.id, deliveryId))
    .limit(1);
  if (!d || (d.status !== 'retrying' && d.status !== 'pending') || d.next.getTime() <= now) return;
  const delaySeconds = Math.min(QUEUE_MAX_DELAY_SECONDS, Math.ceil((d.next.getTime() - now) / 1000));
  await ctx.env.DELIVERIES.send({ type: 'deliver', delivery_id: deliveryId } satisfies DeliverJob, { contentType: 'json', delaySeconds });
}
