import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Fixed-window counters shared by every isolate (a module-level Map would not be).
 * `key` names the limit and its subject, e.g. `login:email:<sha256>` or `login:ip:<address>`.
 */
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  /**
   * Of `count`, how many were failures (the login throttle: the rest are attempts still being checked).
   * A limit made of failures answers 429; one filled by attempts in flight makes the next one wait for them.
   */
  failed: integer('failed').notNull().default(0),
  window_ends_at: integer('window_ends_at', { mode: 'timestamp_ms' }).notNull(),
});
