import { insertWithinLimits, type Limit, wrote } from '../../lib/limited-insert';
import { schema, type Db } from '@afterword/db';
import type { WEBHOOK_EVENT_TYPES, WEBHOOK_STATUSES } from '@afterword/db/schema';
import { and, desc, eq } from 'drizzle-orm';
import {
  MAX_WEBHOOKS_PER_USER,
  type WEBHOOK_EVENTS,
  type TCreateWebhookInput,
  type TMissedCheckinsPayload,
  type TWebhookAttempt,
  type TWebhookCreated,
  type TWebhookTestResult,
  type TWebhookView,
} from '../../contracts/webhooks';
import type { ServiceContext } from '../../env';
import { isKeyClash, keyAndDigestOf, keyedRow } from '../../lib/create-retry';
import { AppError } from '../../lib/errors';
import type { Principal } from '../../middleware/context';
import { deliverWebhook, type AttemptRecord } from './deliver';
import { eventOrigin, TEST_EVENT_PREFIX } from './event-origin';
import { samplePayload, testPayloadFor } from './payload';
import { decryptWebhookSecret, encryptWebhookSecret, generateWebhookSecret, maskedSecret, secretHint } from './secret';
import { newWebhookMessageId } from './signature';
import { checkWebhookUrl } from './url-guard';

// The table's value lists and the contract's must stay the same.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _events: Same<(typeof WEBHOOK_EVENT_TYPES)[number], (typeof WEBHOOK_EVENTS)[number]> = true;
const _statuses: Same<(typeof WEBHOOK_STATUSES)[number], TWebhookView['status']> = true;
void _events;
void _statuses;

type WebhookRow = typeof schema.webhooks.$inferSelect;
/** Not found, or not yours (a malformed id too). */
export const webhookNotFound = () => new AppError('NOT_FOUND', 'Webhook not found');

export function toWebhookView(w: WebhookRow): TWebhookView {
  return {
    id: w.id,
    url: w.url,
    event: w.event,
    retry: w.retry,
    hmac_secret: maskedSecret(w.secret_hint),
    status: w.status,
    disabled_reason: w.disabled_reason,
    disabled_at: w.disabled_at?.toISOString() ?? null,
    sandbox: w.sandbox,
    created_at: w.created_at.toISOString(),
  };
}

/**
 * Whether the creator acts in sandbox mode (an `afw_test_` API key): its endpoint's events then carry
 * `sandbox: true`. The webhook routes are session-only (RouteDoc auth 'session', and the key policy never
 * lets a key manage webhooks), so today this is false for every endpoint; it follows the principal so the
 * flag is right should a key ever be allowed to create one.
 */
const isSandbox = (principal: Principal) => principal.via === 'key' && principal.sandbox;

const urlIssue = (msg: string) => new AppError('UNPROCESSABLE', [{ loc: ['body', 'url'], msg, type: 'url_refused' }]);

/** At most MAX_WEBHOOKS_PER_USER endpoints an account, held by the insert itself. */
export const webhookLimit = (userId: string): Limit => ({
  count: 'SELECT count(*) FROM webhooks WHERE user_id = ?',
  params: [userId],
  max: MAX_WEBHOOKS_PER_USER,
});

/**
 * POST /api/developer/webhooks: the secret (supplied or generated) is answered this once — and again to a try of
 * the same create sent with its `idempotency_key` after its answer was lost, which gets the endpoint the first try
 * wrote instead of a second one receiving every event twice (docs/decisions/create-retries.md).
 */
export async function createWebhook(ctx: ServiceContext, principal: Principal, input: TCreateWebhookInput): Promise<TWebhookCreated> {
  const userId = principal.user.id;
  const checked = checkWebhookUrl(input.url, ctx.env);
  if (!checked.ok) throw urlIssue(checked.reason);

  // No look-up first: a try sent again is refused by the write itself — by the key's unique index, or by the limit
  // when its own first try took the last place — and then reads the endpoint its key names.
  const retry = input.idempotency_key ? await keyAndDigestOf(input) : null;
  const secret = input.hmac_secret ? input.hmac_secret : generateWebhookSecret();
  const id = crypto.randomUUID();
  const now = ctx.now();
  const row: WebhookRow = {
    id,
    user_id: userId,
    url: checked.url,
    event: input.event,
    secret_encrypted: await encryptWebhookSecret(ctx.env, id, secret),
    secret_hint: secretHint(secret),
    retry: input.retry,
    sandbox: isSandbox(principal),
    status: 'active',
    disabled_reason: null,
    disabled_at: null,
    created_at: now,
    updated_at: now,
    create_key: retry?.key ?? null,
    create_digest: retry?.digest ?? null,
  };
  let created: D1Result;
  try {
    // The limit is part of the insert (lib/limited-insert.ts): parallel creations cannot pass it together.
    created = await insertWithinLimits(ctx.env.DB, 'webhooks', row, [webhookLimit(userId)]).run();
  } catch (err) {
    // Another try of this create wrote first (the key's unique index): its endpoint is the answer (409 for another input).
    const raced = retry && isKeyClash(err, 'webhooks', 'user_id') ? await webhookOfKey(ctx, userId, retry) : null;
    if (raced) return createdAgain(ctx, raced);
    throw err;
  }
  if (!wrote(created)) {
    // This create's earlier try, or one racing it, may have taken the last place with this very endpoint.
    const raced = retry ? await webhookOfKey(ctx, userId, retry) : null;
    if (raced) return createdAgain(ctx, raced);
    throw new AppError('CONFLICT', `An account can have at most ${MAX_WEBHOOKS_PER_USER} webhook endpoints; delete one first`);
  }
  return { ...toWebhookView(row), hmac_secret: secret };
}

/** The owner's endpoint an earlier try with this key wrote, or null; 409 when that try came with another input. */
async function webhookOfKey(ctx: ServiceContext, userId: string, retry: { key: string; digest: string }): Promise<WebhookRow | null> {
  const [found] = await ctx.db
    .select()
    .from(schema.webhooks)
    .where(and(eq(schema.webhooks.user_id, userId), eq(schema.webhooks.create_key, retry.key)))
    .limit(1);
  return keyedRow(found, retry.digest, 'webhook');
}

/** The earlier try's endpoint with its secret, answered as its first try would have (the secret is stored encrypted to sign with). */
async function createdAgain(ctx: ServiceContext, w: WebhookRow): Promise<TWebhookCreated> {
  const secret = await decryptWebhookSecret(ctx.env, w.id, w.secret_encrypted);
  if (secret === null) throw new Error(`webhook ${w.id}: its stored secret does not open`);
  return { ...toWebhookView(w), hmac_secret: secret };
}

export async function listWebhooks(ctx: ServiceContext, userId: string): Promise<TWebhookView[]> {
  const rows = await ctx.db
    .select()
    .from(schema.webhooks)
    .where(eq(schema.webhooks.user_id, userId))
    .orderBy(desc(schema.webhooks.created_at), desc(schema.webhooks.id));
  return rows.map(toWebhookView);
}

async function ownWebhook(db: Db, userId: string, id: string): Promise<WebhookRow> {
  const [row] = await db
    .select()
    .from(schema.webhooks)
    .where(and(eq(schema.webhooks.id, id), eq(schema.webhooks.user_id, userId)))
    .limit(1);
  if (!row) throw webhookNotFound();
  return row;
}

/** DELETE /api/developer/webhooks/{id}: the endpoint, its pending deliveries and its log go at once. */
export async function removeWebhook(ctx: ServiceContext, userId: string, id: string): Promise<{ id: string; deleted: true }> {
  await ownWebhook(ctx.db, userId, id);
  await ctx.db.delete(schema.webhooks).where(and(eq(schema.webhooks.id, id), eq(schema.webhooks.user_id, userId)));
  return { id, deleted: true };
}

export function toAttemptView(a: AttemptRecord | (typeof schema.webhookAttempts.$inferSelect & Pick<AttemptRecord, 'origin'>)): TWebhookAttempt {
  return {
    id: a.id,
    webhook_id: a.webhook_id,
    event: a.event,
    message_id: a.message_id,
    attempt: a.attempt,
    status_code: a.status_code,
    success: a.success,
    duration_ms: a.duration_ms,
    error: a.error,
    origin: a.origin,
    created_at: a.created_at.toISOString(),
  };
}

/** GET /api/developer/webhooks/{id}/attempts: newest first. */
export async function listWebhookAttempts(ctx: ServiceContext, userId: string, id: string, limit = 100): Promise<TWebhookAttempt[]> {
  await ownWebhook(ctx.db, userId, id);
  const rows = await ctx.db
    .select({ attempt: schema.webhookAttempts, event_id: schema.webhookDeliveries.event_id })
    .from(schema.webhookAttempts)
    .leftJoin(schema.webhookDeliveries, eq(schema.webhookDeliveries.id, schema.webhookAttempts.delivery_id))
    .where(eq(schema.webhookAttempts.webhook_id, id))
    .orderBy(desc(schema.webhookAttempts.created_at), desc(schema.webhookAttempts.attempt))
    .limit(limit);
  return rows.map((r) => toAttemptView({ ...r.attempt, origin: eventOrigin(r.event_id ?? '') }));
}

/**
 * POST /api/developer/webhooks/{id}/test ('Send test event'): one signed POST of the sample payload (marked
 * `test: true`), now, through the same path as real deliveries (URL check, signing, logging), never retried.
 * It is sent to a disabled endpoint too, and a 2xx turns that endpoint back on.
 */
export async function sendTestEvent(ctx: ServiceContext, userId: string, id: string): Promise<TWebhookTestResult> {
  const webhook = await ownWebhook(ctx.db, userId, id);
  const now = ctx.now();
  const deliveryId = crypto.randomUUID();
  await ctx.db.insert(schema.webhookDeliveries).values({
    id: deliveryId,
    webhook_id: webhook.id,
    event_id: `${TEST_EVENT_PREFIX}${crypto.randomUUID()}`,
    event: webhook.event,
    message_id: newWebhookMessageId(),
    payload: JSON.stringify(testPayloadFor(webhook.event, userId, now, webhook.sandbox)),
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  });
  const result = await deliverWebhook(ctx, deliveryId);
  if (result.outcome === 'none' || !result.attempt) throw new AppError('INTERNAL', 'The test event could not be sent');
  return { delivered: result.outcome === 'delivered', attempt: toAttemptView(result.attempt) };
}

export const webhookSample = (ctx: ServiceContext, userId: string): TMissedCheckinsPayload => samplePayload(userId, ctx.now());
