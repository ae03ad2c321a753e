import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/**
 * The dead-man's switch: if no check-in arrives for `hours`, the account is scheduled for deletion. The stored
 * `deadline` is a floor that check-ins on canaries do not write (docs/decisions/deadman-deadline.md): read it as it
 * stands with `effectiveDeadlineSql`.
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

/** The switch's period in ms, from its `hours` column (SQL). */
export const periodSql = (hours = 'hours') => `CAST(${hours} * 3600000 AS INTEGER)`;

/**
 * The dead-man's switch's deadline as it stands: the later of the stored one and the owner's latest check-in on any
 * of their canaries + hours (SQL; `d` names the switch's row). Beside the table, because every reader of the
 * deadline — the switch's own code, the data export — reads it so; what moves the stored one is the dead-man
 * domain's (worker/src/domains/deadman/deadman-deadline.ts).
 */
export const effectiveDeadlineSql = (d: string) =>
  `max(${d}.deadline, coalesce((SELECT max(c.last_check_in) FROM canaries c WHERE c.user_id = ${d}.user_id), 0) + ${periodSql(`${d}.hours`)})`;
