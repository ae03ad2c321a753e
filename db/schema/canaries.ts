import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/** The stored form of a calendar schedule (validated by the Worker's contract before it is written). */
export interface TCanaryScheduleJson {
  kind: 'weekly' | 'monthly_day' | 'monthly_weekday';
  time: string;
  time_zone: string;
  grace_seconds: number;
  days?: string[];
  day?: number;
  week?: string;
  weekday?: string;
}

/**
 * A periodic check-in. `token_hash` is the SHA-256 of the 256-bit check-in token; the token itself is
 * derived from a server secret and `token_version` (worker/src/domains/canary/canary-token.ts), so it
 * can be shown again without being stored. Deadline = last_check_in + interval_seconds, or for a calendar
 * `schedule` (JSON, worker/src/contracts/canary-schedule.ts) the first scheduled instant after the last
 * check-in plus its grace; a vacation pause starts the cycle at `paused_until` instead
 * (worker/src/contracts/canary-health.ts).
 */
export const canaries = sqliteTable(
  'canaries',
  {
    id: text('id').primaryKey(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    interval_seconds: integer('interval_seconds').notNull(),
    token_hash: text('token_hash').notNull().unique(),
    token_version: integer('token_version').notNull().default(1),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    last_check_in: integer('last_check_in', { mode: 'timestamp_ms' }).notNull(),
    /**
     * When the canary's Durable Object last armed its alarm for; null = no timer known (repair it). Not
     * indexed: only the reconciler's lost-timer scan reads it, every ten minutes over every canary
     * (worker/src/cron/reconcile-canaries.ts), and an index made each wake's write two rows (docs/performance.md).
     */
    timer_due_at: integer('timer_due_at', { mode: 'timestamp_ms' }),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    /** A calendar schedule (JSON), or null: the interval canary. Its canary's object holds the same. */
    schedule: text('schedule', { mode: 'json' }).$type<TCanaryScheduleJson>(),
    /** The end of a vacation pause (at most 60 days): no deadline falls before it. */
    paused_until: integer('paused_until', { mode: 'timestamp_ms' }),
    /**
     * The create call's `idempotency_key` and a SHA-256 digest of its input, when it sent one: the same call sent
     * again answers with this canary instead of writing a second (docs/decisions/create-retries.md).
     */
    create_key: text('create_key'),
    create_digest: text('create_digest'),
  },
  (t) => [
    index('canaries_user_idx').on(t.user_id),
    // The key is unique per owner in the write itself: two tries of one create racing each other write one canary.
    uniqueIndex('canaries_create_key').on(t.user_id, t.create_key).where(sql`${t.create_key} IS NOT NULL`),
  ],
);

export type Canary = typeof canaries.$inferSelect;

/**
 * A link in a canary warning that checks that canary in without signing in (worker/src/domains/canary/check-in-links.ts):
 * one per sent warning, used once, and only until it expires. A link is signed, not stored: a row here is a link that
 * was pressed (keyed by the SHA-256 of its token, which makes it work once) — or one sent before links were signed,
 * stored as the SHA-256 of its 256-bit token when sent.
 * Opening it shows a page with one button; only that button's POST checks in, so a mail scanner changes nothing.
 * Stored WITHOUT ROWID (db/migrations/0034_clustered_hot_tables.sql; drizzle cannot declare it): the token's
 * hash is the table's own key, so an insert writes two rows, not three (docs/performance.md).
 */
export const checkInLinks = sqliteTable(
  'check_in_links',
  {
    token_hash: text('token_hash').primaryKey(),
    /**
     * Whose link it is. Not a foreign key: the link goes with its canary (canary_id), which goes with its owner —
     * a key on users would have each deleted account read the whole table, which has no index on this column, and
     * one would cost a row with every warning (db/migrations/0039_deletions_follow_indexes.sql).
     */
    user_id: text('user_id').notNull(),
    canary_id: text('canary_id')
      .notNull()
      .references(() => canaries.id, { onDelete: 'cascade' }),
    /** The warning (owner_notices.id) it was sent in. */
    notice_id: text('notice_id').notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    expires_at: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    used_at: integer('used_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('check_in_links_canary_idx').on(t.canary_id)],
);
