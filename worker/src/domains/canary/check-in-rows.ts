import type { Bindings } from '../../env';

/**
 * The check-ins one D1 batch applies, as SQL every statement of the batch starts with: a `WITH` clause
 * defining `ci(user_id, at)` — one row per check-in, its owner and its own time — plus the `?1…?k`
 * parameters that clause binds. The statements that follow a check-in (check-in-projection.ts and the
 * dead-man, release and guardian participants, wiring/check-in-participants.ts) are written once over this
 * relation, so one check-in and fifty projected together cost the same eleven statements.
 *
 * The clause is `MATERIALIZED` and the statements write `+status`/`+active` (a unary plus keeps SQLite
 * from using an index on that column): so the check-ins are read once and every table is reached by
 * the check-ins' ids and owners, never by scanning every active canary or every armed message.
 */
export interface CheckInRows {
  with: string;
  params: unknown[];
}

/** `?n` for the statement's own parameters, numbered after the clause's. */
export const nextParam = (rows: CheckInRows, n: number) => `?${rows.params.length + n}`;

/**
 * A domain's reaction to check-ins that lands in their batch, atomic with them: its statements over the
 * check-ins (always the same number for any rows), then, once the batch is written, `after` with those
 * statements' results in order. The canary domain owns the check-ins and names no participant: the
 * dead-man's switch, the release engine and the guardian ladder are composed in
 * worker/src/wiring/check-in-participants.ts and reach the check-in code through the service context.
 */
export interface CheckInParticipant {
  statements: (db: D1Database, rows: CheckInRows) => D1PreparedStatement[];
  after?: (env: Bindings, results: D1Result[]) => Promise<void>;
  /**
   * Statements for a canary's deletion batch, run before its row goes: for a participant that reads the owner's
   * check-ins from the canaries' `last_check_in` (the dead-man's deadline), what it must keep of this one's.
   */
  onCanaryDeleted?: (db: D1Database, canaryId: string) => D1PreparedStatement[];
}
