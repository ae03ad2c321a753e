import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/**
 * Value lists of the webhook tables. Kept here rather than in enums.ts (the contract in
 * worker/src/contracts/webhooks.ts repeats them and a type check in the webhooks domain keeps the two equal).
 */
export const WEBHOOK_EVENT_TYPES = ['missed_checkins', 'death_confirmed'] as const;
export const WEBHOOK_STATUSES = ['active', 'disabled'] as const;
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'sending', 'retrying', 'delivered', 'failed'] as const;

/**
 * A developer's webhook endpoint (docs/product.md "Developer API and webhooks",
 * docs/server-rules.md "Developer platform"; docs/decisions/webhooks.md). The signing secret must be usable to
 * sign, so it cannot be hashed: `secret_encrypted` is AES-GCM-256 under a key derived from the
 * WEBHOOK_SECRET_KEY secret, bound to the row's id. `secret_hint` (its last 4 characters) is what lists show
 * (`whsec_…abcd`). A 410 from the endpoint sets `status = 'disabled'` with the reason.
 */
export const webhooks = sqliteTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    event: text('event', { enum: WEBHOOK_EVENT_TYPES }).notNull(),
    secret_encrypted: text('secret_encrypted').notNull(),
    secret_hint: text('secret_hint').notNull(),
    retry: integer('retry', { mode: 'boolean' }).notNull(),
    /** Created through a sandbox API key: its events carry `sandbox: true`. */
    sandbox: integer('sandbox', { mode: 'boolean' }).notNull().default(false),
    status: text('status', { enum: WEBHOOK_STATUSES }).notNull(),
    disabled_reason: text('disabled_reason'),
    disabled_at: integer('disabled_at', { mode: 'timestamp_ms' }),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updated_at: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
    /**
     * The create call's `idempotency_key` and a SHA-256 digest of its input, when it sent one: the same call sent
     * again answers with this endpoint (and its secret) instead of adding a second that would get every event twice
     * (docs/decisions/create-retries.md).
     */
    create_key: text('create_key'),
    create_digest: text('create_digest'),
  },
  (t) => [
    index('webhooks_user_idx').on(t.user_id, t.event, t.status),
    // The key is unique per owner in the write itself: two tries of one create racing each other write one endpoint.
    uniqueIndex('webhooks_create_key').on(t.user_id, t.create_key).where(sql`${t.create_key} IS NOT NULL`),
  ],
);

/**
 * One event for one endpoint: the unit of at-most-one-attempt-at-a-time, claimed with a lease like
 * `deliveries`. `message_id` is the `webhook-id` header (stable across retries) and `payload` the exact body,
 * fixed at creation. Unique (webhook_id, event_id): a redelivered `missed_checkins` event adds nothing.
 * `event_id` is the canary transition's id, or `test:<uuid>` for 'Send test event'.
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    webhook_id: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event_id: text('event_id').notNull(),
    event: text('event').notNull(),
    message_id: text('message_id').notNull(),
    payload: text('payload').notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull(),
    lease_until: integer('lease_until', { mode: 'timestamp_ms' }),
    last_error: text('last_error'),
    last_status_code: integer('last_status_code'),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updated_at: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('webhook_deliveries_once').on(t.webhook_id, t.event_id), index('webhook_deliveries_due_idx').on(t.status, t.next_attempt_at)],
);

/** Every HTTP attempt (or refusal to send), as the Developer page shows it. */
export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    webhook_id: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    delivery_id: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    message_id: text('message_id').notNull(),
    attempt: integer('attempt').notNull(),
    /** null: no HTTP answer (timeout, connection error, URL refused). */
    status_code: integer('status_code'),
    success: integer('success', { mode: 'boolean' }).notNull(),
    duration_ms: integer('duration_ms').notNull(),
    error: text('error'),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('webhook_attempts_webhook_idx').on(t.webhook_id, t.created_at),
    // A deleted delivery's attempts are found through this index: without it each delivery an endpoint's (or an
    // account's) deletion removed read every attempt of every endpoint.
    index('webhook_attempts_delivery_idx').on(t.delivery_id),
  ],
);

export type Webhook = typeof webhooks.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;
