import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Fixed-window counters shared by every isolate (a module-level Map would not be).
 * `key` names the limit and its subject, e.g. `login:email:<sha256>` or `login:ip:<address>`.
 */
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  window_ends_at: integer('window_ends_at', { mode: 'timestamp_ms' }).notNull(),
});
