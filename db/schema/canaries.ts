import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/**
 * A periodic check-in. `token_hash` is the SHA-256 of the 256-bit check-in token; the token itself is
 * derived from a server secret and `token_version` (worker/src/domains/canary/canary-token.ts), so it
 * can be shown again without being stored. Deadline = last_check_in + interval_seconds.
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
    /** When the canary's Durable Object last armed its alarm for; null = no timer known (repair it). */
    timer_due_at: integer('timer_due_at', { mode: 'timestamp_ms' }),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('canaries_user_idx').on(t.user_id), index('canaries_timer_idx').on(t.active, t.timer_due_at)],
);

export type Canary = typeof canaries.$inferSelect;
