import { isNull } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { canaries } from './canaries';
import { CANARY_TRANSITION_KINDS, REMINDER_DELIVERY_STATUSES, TRANSITION_RECORDERS } from './enums';

/**
 * Every state change a canary's timer records: the grace-entry reminder, each missed interval, and the
 * re-warning after a late deadline. One row per (canary, cycle, kind, misses) — the table's key: a timer that
 * runs twice or a redelivered message cannot record a second one. `cycle_deadline` is the deadline of the
 * check-in cycle (last_check_in + interval), which separates one run of misses from the next.
 *
 * The row is also the outbox of the `missed_checkins` event: `emitted_at` is set once the event is on
 * the queue, and the reconciler re-sends rows that count but were never emitted.
 *
 * A canary's events go with it (db/migrations/0041_transitions_go_with_their_canary.sql): deleting a canary deletes
 * its history as its object forgets its check-ins, and an account's deletion reaches them through its canaries —
 * so the table needs no index of its owner, a row fewer with every event (docs/performance.md).
 */
export const canaryTransitions = sqliteTable(
  'canary_transitions',
  {
    /** The event's id (the object's; a warning's notice carries it). Unique by construction, and looked up by nothing. */
    id: text('id').notNull(),
    canary_id: text('canary_id')
      .notNull()
      .references(() => canaries.id, { onDelete: 'cascade' }),
    user_id: text('user_id').notNull(),
    cycle_deadline: integer('cycle_deadline', { mode: 'timestamp_ms' }).notNull(),
    kind: text('kind', { enum: CANARY_TRANSITION_KINDS }).notNull(),
    misses: integer('misses').notNull(),
    /** When the schedule said it should happen, and when it was recorded: lateness = fired - due. */
    due_at: integer('due_at', { mode: 'timestamp_ms' }).notNull(),
    fired_at: integer('fired_at', { mode: 'timestamp_ms' }).notNull(),
    /** A missed interval counts for releases from this instant (later than fired_at after a late firing). */
    counts_from: integer('counts_from', { mode: 'timestamp_ms' }),
    emitted_at: integer('emitted_at', { mode: 'timestamp_ms' }),
    /** Reminders: how the owner was told and whether it reached them. */
    delivery_channel: text('delivery_channel'),
    delivery_status: text('delivery_status', { enum: REMINDER_DELIVERY_STATUSES }),
    delivered_at: integer('delivered_at', { mode: 'timestamp_ms' }),
    /** Who recorded it: the Durable Object alarm or the reconciler. */
    recorded_by: text('recorded_by', { enum: TRANSITION_RECORDERS }).notNull(),
  },
  (t) => [
    // The once-per-cycle key is the primary key of a table stored WITHOUT ROWID (db/migrations/0036_transitions_by_key.sql;
    // drizzle cannot declare it): an insert writes the row alone (the owner's index went with 0041), not four rows
    // (docs/performance.md).
    primaryKey({ name: 'canary_transitions_pk', columns: [t.canary_id, t.cycle_deadline, t.kind, t.misses] }),
    // Only the rows not yet emitted, which the reconciler looks for: most rows arrive emitted (a wake sends its
    // events before it projects them), and a row an index does not hold costs no write there (docs/performance.md).
    index('canary_transitions_unemitted_idx').on(t.kind, t.counts_from).where(isNull(t.emitted_at)),
  ],
);

export type CanaryTransition = typeof canaryTransitions.$inferSelect;
