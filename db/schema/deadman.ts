import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/**
 * The dead-man's switch: if no check-in arrives for `hours`, the account is scheduled for deletion.
 * deadline = max(armed_at, the user's latest check-in) + hours.
 */
export const deadmanSwitches = sqliteTable(
  'deadman_switches',
  {
    user_id: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    hours: real('hours').notNull(),
    armed_at: integer('armed_at', { mode: 'timestamp_ms' }).notNull(),
    deadline: integer('deadline', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('deadman_deadline_idx').on(t.deadline)],
);

/**
 * Deletions that will happen (GET /api/legal/deletions). Kept without a foreign key so the record of
 * a carried-out deletion survives the account it deleted.
 */
export const scheduledDeletions = sqliteTable(
  'scheduled_deletions',
  {
    id: text('id').primaryKey(),
    user_id: text('user_id').notNull(),
    type: text('type', { enum: ['account'] }).notNull(),
    /** deadman: the dead-man's switch passed; request: the user asked (POST /api/account/delete). */
    reason: text('reason', { enum: ['deadman', 'request'] }).notNull(),
    /** The earliest moment it is carried out; a check-in before then cancels it. */
    deletion_date: integer('deletion_date', { mode: 'timestamp_ms' }).notNull(),
    status: text('status', { enum: ['scheduled', 'done', 'cancelled'] }).notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    done_at: integer('done_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('scheduled_deletions_user_idx').on(t.user_id), index('scheduled_deletions_due_idx').on(t.status, t.deletion_date)],
);
