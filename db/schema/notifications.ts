import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

import { NOTICE_CHANNELS, NOTIFY_METHODS } from './enums';

export { NOTIFY_METHODS };

export interface StoredAlerts {
  vaults: boolean;
  messages: boolean;
  canary_events: boolean;
}

/**
 * What the owner is told and when (docs/product.md "Delivery channels and notifications",
 * docs/server-rules.md "Channels and notifications"). No row = the defaults in worker/src/contracts/notify.ts.
 * Quiet hours are wall-clock HH:MM in the user's time zone; start = end means none.
 */
export const notificationPreferences = sqliteTable('notification_preferences', {
  user_id: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  methods: text('methods', { mode: 'json' }).$type<(typeof NOTIFY_METHODS)[number][]>().notNull(),
  quiet_start: text('quiet_start').notNull(),
  quiet_end: text('quiet_end').notNull(),
  alerts: text('alerts', { mode: 'json' }).$type<StoredAlerts>().notNull(),
  updated_at: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/** A browser's Web Push subscription (PushSubscription.toJSON()); removed when the push service says 404/410. */
export const pushSubscriptions = sqliteTable(
  'push_subscriptions',
  {
    id: text('id').primaryKey(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.user_id)],
);

/** A pending phone verification: the code is stored hashed, expires, and allows a few attempts. */
export const phoneVerifications = sqliteTable('phone_verifications', {
  user_id: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  phone: text('phone').notNull(),
  code_hash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  expires_at: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
});

/**
 * Owner notifications (a message armed, released, failed): one row per cause, written before it is
 * sent and marked after, so a redelivered job does not tell the owner twice. Stored WITHOUT ROWID, keyed by its
 * id (db/migrations/0040_owner_notices_by_key.sql; drizzle cannot declare it): an insert writes the row and its two
 * indexes, not a rowid row and a key index besides (docs/performance.md).
 */
export const ownerNotices = sqliteTable(
  'owner_notices',
  {
    id: text('id').primaryKey(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    link: text('link'),
    /** A sandbox API key caused it: sent to the local outbox only, whatever the transports are. */
    outbox_only: integer('outbox_only', { mode: 'boolean' }).notNull().default(false),
    /** `sent`: some channel accepted it (at `sent_at`); a warning stays `pending` until one does. */
    status: text('status', { enum: ['pending', 'sent', 'skipped'] }).notNull(),
    /** Not before: quiet hours and the backoff after an undelivered try move it later. The reconciler re-sends pending notices well past it. */
    due_at: integer('due_at', { mode: 'timestamp_ms' }).notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    sent_at: integer('sent_at', { mode: 'timestamp_ms' }),
    /** A canary's warning (its id is the warning's timer event): the canary whose clock waits for its delivery. */
    canary_id: text('canary_id'),
    /** Tries that reached no channel (a warning is tried again with backoff until one does). */
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [
    // A canary's warnings are read through the owner's index (a person has few canaries): one index fewer to
    // write with every notice (docs/performance.md).
    index('owner_notices_user_idx').on(t.user_id, t.created_at),
    // Only the pending notices, the ones the reconciler looks for (reconcile-releases.ts): marking one sent takes
    // it out, a row written less than moving it within an index of every notice (docs/performance.md).
    index('owner_notices_pending_idx').on(t.due_at).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * Each channel an owner notice was tried on: which, the address as shown to the owner (masked), whether
 * the channel accepted it (SMTP 250, a provider's 2xx, a push service's 201, the local outbox's row) and
 * when. What Canary Status shows under "where each warning went".
 */
export const ownerNoticeDeliveries = sqliteTable(
  'owner_notice_deliveries',
  {
    id: text('id').notNull(),
    notice_id: text('notice_id')
      .notNull()
      .references(() => ownerNotices.id, { onDelete: 'cascade' }),
    /** Whose notice it was. Not a foreign key, nor indexed: a delivery goes with its notice, which goes with its owner (0040). */
    user_id: text('user_id').notNull(),
    channel: text('channel', { enum: NOTICE_CHANNELS }).notNull(),
    address: text('address').notNull(),
    ok: integer('ok', { mode: 'boolean' }).notNull(),
    error: text('error'),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
  },
  // Stored WITHOUT ROWID with the key a notice's deliveries are read by (db/migrations/0034_clustered_hot_tables.sql):
  // an insert writes one row, the table's own (docs/performance.md; the owner's index went with 0040).
  (t) => [primaryKey({ name: 'owner_notice_deliveries_pk', columns: [t.notice_id, t.at, t.id] })],
);

/** Small server-held settings, e.g. the VAPID key pair generated for local development. */
export const appSettings = sqliteTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
});
