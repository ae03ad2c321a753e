import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/**
 * The inactivity policy (docs/product.md "Inactivity and payments") for one account: after 12 months with
 * neither a sign-in nor a check-in the free export window opens (this row is written), reminders follow, and at
 * `archive_at` the account is archived (read-only, its files moved to R2's cold storage class) until the user
 * signs in. Activity after `window_started_at` ends the policy: the row is deleted (and an archive restored).
 */
export const accountInactivity = sqliteTable(
  'account_inactivity',
  {
    user_id: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The last sign-in or check-in seen when the window opened. */
    last_active_at: integer('last_active_at', { mode: 'timestamp_ms' }).notNull(),
    window_started_at: integer('window_started_at', { mode: 'timestamp_ms' }).notNull(),
    /** The end of the free export window: the earliest moment the account is archived. */
    archive_at: integer('archive_at', { mode: 'timestamp_ms' }).notNull(),
    /** How many of the reminders (see worker/src/domains/inactivity/policy.ts) were sent. */
    reminders_sent: integer('reminders_sent').notNull().default(0),
    archived_at: integer('archived_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('account_inactivity_archive_idx').on(t.archive_at)],
);

export type AccountInactivity = typeof accountInactivity.$inferSelect;
