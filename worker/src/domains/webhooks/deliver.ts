import { appOrigin } from '../../lib/app-origin';
import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import type { Webhook } from '@afterword/db/schema';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { QUEUE_MAX_DELAY_SECONDS } from '../messages/delivery/retry-policy';
import { enqueueOwnerNotice, insertOwnerNotice } from '../notify/enqueue-owner-notice';
import type { TWebhookEventOrigin } from '../../contracts/webhooks';
import { eventOrigin } from './event-origin';
import { webhookRetryDelaySeconds } from './retry-policy';
import { decryptWebhookSecret } from './secret';
import { postWebhook, type SendResult } from './send';
import { webhookHeaders } from './signature';
import { checkResolvedHost } from './dns-guard';
import { checkWebhookUrl } from './url-guard';

import type { WebhookJob } from '../../contracts/jobs';
import { humanTime } from '../../lib/human-time';
export type { WebhookJob };

/** How long an attempt holds its delivery before another worker may take over (attempts time out at 10 s). */
export const WEBHOOK_LEASE_MS = 60_000;

interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  message_id: string;
  payload: string;
  attempts: number;
}

export interface AttemptRecord {
  id: string;
  webhook_id: string;
  delivery_id: string;
  event: string;
  message_id: string;
  attempt: number;
  status_code: number | null;
  success: boolean;
  duration_ms: number;
  error: string | null;
  origin: TWebhookEventOrigin;
  created_at: Date;
}

export type DeliverOutcome = { outcome: 'none' } | { outcome: 'delivered' | 'retrying' | 'failed'; attempt: AttemptRecord | null };

export interface DeliverOptions {
  /** Per-attempt timeout (default 10 s); tests shorten it for a receiver that hangs. */
  timeoutMs?: number;
}

/**
 * The DELIVERIES consumer of `{type:'webhook'}`: one attempt of one event to one endpoint. Like message
 * deliveries, the attempt first claims its row (compare-and-set to `sending`, `attempts + 1`, a lease), so a
 * duplicated or early job sends nothing and at most one attempt runs at a time; a crash mid-attempt is
 * retried by the reconciler once the lease ends (receivers deduplicate on `webhook-id`, which stays the same).
 *
 * The URL is checked again (the SSRF rules may have changed since it was created), the secret decrypted, the
 * body signed with this attempt's timestamp and POSTed. 2xx → delivered. 410 → failed, the endpoint disabled
 * and its owner told (an owner notice, kind `webhook_disabled`). With `retry`, a 5xx, 429, timeout or
 * connection error waits for the next step of the schedule (queue delay); otherwise, or after the last
 * attempt, failed. Every attempt (and every refusal to send) is a `webhook_attempts` row.
 */
export async function deliverWebhook(ctx: ServiceContext, deliveryId: string, opts: DeliverOptions = {}): Promise<DeliverOutcome> {
  const now = ctx.now();
  const claimed = await ctx.env.DB.prepare(
    `UPDATE webhook_deliveries SET status = 'sending', attempts = attempts + 1, lease_until = ?2, updated_at = ?1
     WHERE id = ?3 AND ((status IN ('pending', 'retrying') AND next_attempt_at <= ?1) OR (status = 'sending' AND lease_until < ?1))
     RETURNING id, webhook_id, event_id, event, message_id, payload, attempts`,
  )
    .bind(now.getTime(), now.getTime() + WEBHOOK_LEASE_MS, deliveryId)
    .first<ClaimedDelivery>();
  if (!claimed) {
    await requeueIfEarly(ctx, deliveryId, now.getTime());
    return { outcome: 'none' };
  }
  const [webhook] = await ctx.db.select().from(schema.webhooks).where(eq(schema.webhooks.id, claimed.webhook_id)).limit(1);
  if (!webhook) return { outcome: 'none' }; // deleted: its deliveries went with it
  const isTest = eventOrigin(claimed.event_id) === 'test';

  if (webhook.status !== 'active' && !isTest) {
    await ctx.env.DB.prepare(
      `UPDATE webhook_deliveries SET status = 'failed', lease_until = NULL, last_error = ?, updated_at = ? WHERE id = ? AND status = 'sending'`,
    )
      .bind('endpoint disabled before this attempt', now.getTime(), claimed.id)
      .run();
    return { outcome: 'failed', attempt: null };
  }

  let result: SendResult;
  const checked = checkWebhookUrl(webhook.url, ctx.env);
  const resolved = checked.ok ? await checkResolvedHost(new URL(checked.url).hostname, ctx.env) : null;
  const secret = checked.ok && resolved?.ok ? await decryptWebhookSecret(ctx.env, webhook.id, webhook.secret_encrypted) : null;
  if (!checked.ok) {
    result = { statusCode: null, durationMs: 0, error: `not sent: ${checked.reason}`, retryable: false, retryAfterSeconds: null };
  } else if (resolved && !resolved.ok) {
    result = { statusCode: null, durationMs: 0, error: `not sent: ${resolved.reason}`, retryable: resolved.retryable, retryAfterSeconds: null };
  } else if (secret == null) {
    result = {
      statusCode: null,
      durationMs: 0,
      error: 'not sent: the signing secret could not be decrypted (was WEBHOOK_SECRET_KEY changed?)',
      retryable: false,
      retryAfterSeconds: null,
    };
  } else {
    try {
      const headers = await webhookHeaders(secret, claimed.message_id, Math.floor(now.getTime() / 1000), claimed.payload);
      result = await postWebhook(checked.url, headers, claimed.payload, now, opts.timeoutMs);
    } catch (err) {
      result = {
        statusCode: null,
        durationMs: 0,
        error: `unexpected error: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300),
        retryable: true,
        retryAfterSeconds: null,
      };
    }
  }
  return recordAttempt(ctx, claimed, webhook, result, isTest, now);
}

async function recordAttempt(
  ctx: ServiceContext,
  claimed: ClaimedDelivery,
  webhook: Webhook,
  result: SendResult,
  isTest: boolean,
  at: Date,
): Promise<DeliverOutcome> {
  const db = ctx.env.DB;
  const now = ctx.now().getTime();
  const success = result.error == null && result.statusCode != null && result.statusCode >= 200 && result.statusCode < 300;
  const gone = result.statusCode === 410;
  const mayRetry = webhook.retry && !isTest && !gone && result.retryable;
  const delay = success || !mayRetry ? null : webhookRetryDelaySeconds(claimed.attempts, result.retryAfterSeconds);
  const status = success ? 'delivered' : delay != null ? 'retrying' : 'failed';
  const error = success ? null : (result.error ?? `HTTP ${result.statusCode}`).slice(0, 500);
  const attempt: AttemptRecord = {
    id: crypto.randomUUID(),
    webhook_id: webhook.id,
    delivery_id: claimed.id,
    event: claimed.event,
    message_id: claimed.message_id,
    attempt: claimed.attempts,
    status_code: result.statusCode,
    success,
    duration_ms: result.durationMs,
    error,
    origin: eventOrigin(claimed.event_id),
    created_at: at,
  };

  const statements: D1PreparedStatement[] = [
    db
      .prepare(
        `INSERT INTO webhook_attempts (id, webhook_id, delivery_id, event, message_id, attempt, status_code, success, duration_ms, error, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        attempt.id,
        webhook.id,
        claimed.id,
        claimed.event,
        claimed.message_id,
        claimed.attempts,
        result.statusCode,
        success ? 1 : 0,
        result.durationMs,
        error,
        at.getTime(),
      ),
    db
      .prepare(
        `UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, lease_until = NULL, last_error = ?, last_status_code = ?, updated_at = ?
         WHERE id = ? AND status = 'sending' AND attempts = ?`,
      )
      .bind(status, delay != null ? now + delay * 1000 : now, error, result.statusCode, now, claimed.id, claimed.attempts),
  ];
  const noticeId = crypto.randomUUID();
  if (gone) {
    const reason = `The endpoint answered 410 Gone on ${humanTime(at.getTime())}.`;
    statements.push(
      db
        .prepare(`UPDATE webhooks SET status = 'disabled', disabled_reason = ?, disabled_at = ?, updated_at = ? WHERE id = ? AND status = 'active'`)
        .bind(reason, now, now, webhook.id),
      insertOwnerNotice(
        db,
        {
          id: noticeId,
          userId: webhook.user_id,
          kind: 'webhook_disabled',
          subject: 'A webhook endpoint was disabled',
          text:
            `${webhook.url} answered 410 Gone to a ${claimed.event} webhook, so Afterword disabled it and will not send it events any more. ` +
            `If it should receive them, fix it and use 'Send test event' on the Developer page (a successful test turns it back on), or delete it.`,
          link: developerPageLink(ctx),
          at: now,
        },
        { sql: 'WHERE changes() = 1' },
      ),
    );
  } else if (success && isTest && webhook.status === 'disabled') {
    statements.push(
      db
        .prepare(`UPDATE webhooks SET status = 'active', disabled_reason = NULL, disabled_at = NULL, updated_at = ? WHERE id = ? AND status = 'disabled'`)
        .bind(now, webhook.id),
    );
  }
  const results = await db.batch(statements);
  const noticeInserted = gone && (results[3]?.meta.changes ?? 0) === 1;
  log.info('webhook attempt', {
    delivery_id: claimed.id,
    webhook_id: webhook.id,
    attempt: claimed.attempts,
    status_code: result.statusCode,
    ok: success,
    status,
    delay_s: delay,
  });

  if (delay != null) {
    await ctx.env.DELIVERIES.send({ type: 'webhook', delivery_id: claimed.id } satisfies WebhookJob, { contentType: 'json', delaySeconds: delay });
  }
  if (noticeInserted) {
    log.warn('webhook endpoint disabled (410)', { webhook_id: webhook.id });
    await enqueueOwnerNotice(ctx, noticeId);
  }
  return { outcome: status === 'delivered' ? 'delivered' : status === 'retrying' ? 'retrying' : 'failed', attempt };
}

const developerPageLink = (ctx: ServiceContext) => `${appOrigin(ctx.env)}/app/developer`;

/** A job that arrived before its attempt is due (a delay cut short, a duplicate): wait again. */
async function requeueIfEarly(ctx: ServiceContext, deliveryId: string, now: number) {
  const [d] = await ctx.db
    .select({ status: schema.webhookDeliveries.status, next: schema.webhookDeliveries.next_attempt_at })
    .from(schema.webhookDeliveries)
    .where(eq(schema.webhookDeliveries.id, deliveryId))
    .limit(1);
  if (!d || (d.status !== 'retrying' && d.status !== 'pending') || d.next.getTime() <= now) return;
  const delaySeconds = Math.min(QUEUE_MAX_DELAY_SECONDS, Math.ceil((d.next.getTime() - now) / 1000));
  await ctx.env.DELIVERIES.send({ type: 'webhook', delivery_id: deliveryId } satisfies WebhookJob, { contentType: 'json', delaySeconds });
}
