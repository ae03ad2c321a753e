import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/**
 * What happened to an account, newest first on the dashboard's Recent Activity and in the export:
 * check-ins (with their source), reminders, misses, dead-man changes. `canary_id` is kept as plain
 * text, so history outlives a deleted canary.
 *
 * Stored `WITHOUT ROWID` (db/migrations/0034_clustered_hot_tables.sql; drizzle cannot declare it): the
 * primary key (user_id, created_at, id) is the table itself, in the order the feed reads it, so a row
 * inserted is one row written, not three — the row, an index on `id`, one on (user_id, created_at)
 * (docs/performance.md). `id` stays unique in practice (an event id or a random one); a check-in projected
 * twice carries the same three values and is ignored by the key.
 */
export const activity = sqliteTable(
  'activity',
  {
    id: text('id').notNull(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    canary_id: text('canary_id'),
    kind: text('kind').notNull(),
    /** For check-ins: web, token, ping or api-key; for timer events: system. */
    source: text('source'),
    summary: text('summary').notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ name: 'activity_pk', columns: [t.user_id, t.created_at, t.id] })],
);

export type Activity = typeof activity.$inferSelect;
