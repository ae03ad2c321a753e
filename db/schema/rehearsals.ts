import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/**
 * A rehearsal ("Test everything", worker/src/domains/rehearsal/): what the engine would do if the owner stopped
 * checking in at `created_at`, and what each TEST copy of a warning reached. Nothing real changes: this row is
 * the only thing a rehearsal writes. The newest row of a user also holds the rate limit (one per 10 minutes).
 */
export const rehearsals = sqliteTable(
  'rehearsals',
  {
    id: text('id').primaryKey(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    notify_recipients: integer('notify_recipients', { mode: 'boolean' }).notNull().default(false),
    notify_guardians: integer('notify_guardians', { mode: 'boolean' }).notNull().default(false),
    /** 'planning' while the TEST copies go out, then 'done'. */
    status: text('status', { enum: ['planning', 'done'] }).notNull(),
    /** The report (contracts/rehearsal.ts TRehearsalReport): steps, gaps and what each TEST copy reached. */
    report: text('report', { mode: 'json' }).$type<unknown>(),
  },
  (t) => [index('rehearsals_user_created_idx').on(t.user_id, t.created_at)],
);
export type Rehearsal = typeof rehearsals.$inferSelect;
