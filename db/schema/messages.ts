import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './users';
import { DELIVERY_METHODS, DELIVERY_STATUSES, MESSAGE_STATUSES, TRIGGER_TYPES } from './enums';

export { DELIVERY_METHODS, DELIVERY_STATUSES, MESSAGE_STATUSES, TRIGGER_TYPES };

/** One release rule as stored: the input plus when it last fired (a fired fixed date is spent). */
export interface StoredRule {
  trigger_type: (typeof TRIGGER_TYPES)[number];
  /**
   * A count (missed_checkins), an ISO date or date-time (fixed_date), whole days (delay_after_death),
   * `MM-DD` (recipient_birthday: the first such day after the death is confirmed).
   */
  trigger_value: string;
  expire_window: number | null;
  fired_at?: number | null;
}

/**
 * A message a user prepared for another user (docs/server-rules.md "Messages, rules and release"). The release engine
 * (worker/src/domains/messages/release/) is the only writer of `status`, `version` and the timing
 * columns; `version` makes each state change a compare-and-set, so concurrent wakes, events and check-ins
 * never both win. Audio lives in R2 under `audio_key`, never in D1.
 */
export const messages = sqliteTable(
  'messages',
  {
    id: text('id').primaryKey(),
    sender_id: text('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * Null once the recipient deleted their account: the message stays with its sender (cancelled with
     * cause `recipient_left` if it was not released yet; docs/decisions/data-rights.md), with no trace
     * of the erased account.
     */
    recipient_user_id: text('recipient_user_id').references(() => users.id, { onDelete: 'set null' }),
    content: text('content').notNull().default(''),
    /** The E2EE envelope (docs/security/e2ee.md); null for plaintext messages. */
    content_encrypted: text('content_encrypted'),
    audio_key: text('audio_key'),
    audio_type: text('audio_type'),
    audio_bytes: integer('audio_bytes'),
    deliver_at: integer('deliver_at', { mode: 'timestamp_ms' }).notNull(),
    delivery_method: text('delivery_method', { enum: DELIVERY_METHODS }).notNull(),
    use_e2ee: integer('use_e2ee', { mode: 'boolean' }).notNull().default(false),
    rules: text('rules', { mode: 'json' }).$type<StoredRule[]>().notNull(),
    status: text('status', { enum: MESSAGE_STATUSES }).notNull(),
    version: integer('version').notNull().default(0),
    /** While armed: when the arming happened and when its cancel window ends (release at or after it). */
    armed_at: integer('armed_at', { mode: 'timestamp_ms' }),
    cancel_deadline: integer('cancel_deadline', { mode: 'timestamp_ms' }),
    released_at: integer('released_at', { mode: 'timestamp_ms' }),
    finished_at: integer('finished_at', { mode: 'timestamp_ms' }),
    /** When the message's ReleaseClock alarm is set for; null = no timer known (the reconciler repairs it). */
    timer_due_at: integer('timer_due_at', { mode: 'timestamp_ms' }),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updated_at: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
    /**
     * Set when the message carries a vault item (db/schema/vault.ts). No foreign key: the item and its
     * messages are removed together by the vault's delete and by the owner's account deletion. A yearly
     * birthday item has one message per year, told apart by `deliver_at`.
     */
    vault_item_id: text('vault_item_id'),
    /** When the recipient first opened it after release (their Inbox's unread marker); null = unread. */
    read_at: integer('read_at', { mode: 'timestamp_ms' }),
    /**
     * The sender's `idempotency_key` of the create call that wrote it, and a digest of that call's input: a create
     * sent again with the same key (its first answer lost) gets this message back instead of writing a second
     * (docs/decisions/create-retries.md). Null for messages created without one.
     */
    create_key: text('create_key'),
    create_digest: text('create_digest'),
  },
  (t) => [
    uniqueIndex('messages_vault_once').on(t.vault_item_id, t.deliver_at),
    // The key is unique per sender in the write itself: two tries of one create racing each other write one message.
    uniqueIndex('messages_create_key').on(t.sender_id, t.create_key).where(sql`${t.create_key} IS NOT NULL`),
    index('messages_sender_idx').on(t.sender_id, t.created_at),
    index('messages_recipient_idx').on(t.recipient_user_id, t.released_at),
    index('messages_timer_idx').on(t.status, t.timer_due_at),
  ],
);

/**
 * Every state change of a message with its cause, so the sender sees *why* it was or was not sent.
 * `dedupe_key` (e.g. the canary event id that armed it) makes a repeated event a no-op.
 */
export const messageTransitions = sqliteTable(
  'message_transitions',
  {
    id: text('id').primaryKey(),
    message_id: text('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    from_status: text('from_status', { enum: MESSAGE_STATUSES }),
    to_status: text('to_status', { enum: MESSAGE_STATUSES }).notNull(),
    cause: text('cause').notNull(),
    detail: text('detail').notNull(),
    dedupe_key: text('dedupe_key'),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('message_transitions_message_idx').on(t.message_id, t.created_at), uniqueIndex('message_transitions_once').on(t.message_id, t.dedupe_key)],
);

/**
 * One row per (message, channel): the unit of exactly-once. A consumer claims it with a lease before
 * calling the provider; a redelivered job finds it delivered (or leased) and does nothing.
 */
export const deliveries = sqliteTable(
  'deliveries',
  {
    id: text('id').primaryKey(),
    message_id: text('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: DELIVERY_METHODS }).notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: integer('next_attempt_at', { mode: 'timestamp_ms' }).notNull(),
    lease_until: integer('lease_until', { mode: 'timestamp_ms' }),
    last_error: text('last_error'),
    provider_id: text('provider_id'),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updated_at: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('deliveries_once').on(t.message_id, t.channel), index('deliveries_due_idx').on(t.status, t.next_attempt_at)],
);

/** Each attempt, as the sender (and the recipient, for their copy) sees it: GET /api/notify/logs/{id}. */
export const deliveryLog = sqliteTable(
  'delivery_log',
  {
    id: text('id').primaryKey(),
    message_id: text('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    delivery_id: text('delivery_id'),
    /** A delivery method, or `inbox` for the copy placed in the recipient's inbox at release. */
    channel: text('channel', { enum: [...DELIVERY_METHODS, 'inbox'] }).notNull(),
    attempt: integer('attempt').notNull(),
    success: integer('success', { mode: 'boolean' }).notNull(),
    error: text('error'),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('delivery_log_message_idx').on(t.message_id, t.created_at)],
);

export type Message = typeof messages.$inferSelect;
export type MessageTransition = typeof messageTransitions.$inferSelect;
export type Delivery = typeof deliveries.$inferSelect;
