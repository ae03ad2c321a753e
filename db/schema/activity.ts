import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/**
 * What happened to an account, newest first on the dashboard's Recent Activity and in the export:
 * check-ins (with their source), reminders, misses, dead-man changes. `canary_id` is kept as plain
 * text, so history outlives a deleted canary.
 */
export const activity = sqliteTable(
  'activity',
  {
    id: text('id').primaryKey(),
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
  (t) => [index('activity_user_idx').on(t.user_id, t.created_at)],
);

export type Activity = typeof activity.$inferSelect;
