/**
 * The check-ins one D1 batch applies, as SQL every statement of the batch starts with: a `WITH` clause
 * defining `ci(user_id, at)` — one row per check-in, its owner and its own time — plus the `?1…?k`
 * parameters that clause binds. The statements that follow a check-in (check-in-projection.ts and the
 * dead-man, release and guardian rules it calls) are written once over this relation, so one check-in
 * and fifty projected together cost the same eleven statements.
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
