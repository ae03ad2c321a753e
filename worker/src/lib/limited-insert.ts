/**
 * Limits that hold however requests interleave. A rule checked by reading and then written in a second
 * step lets parallel requests all pass the read before any of them writes (twenty canaries on a plan of
 * one). Here the limit is part of the write: one INSERT … SELECT … WHERE (count) < max, which SQLite (D1)
 * runs as one statement under its single writer, so the count it reads is the count it inserts under.
 * What follows the row in the same batch is written only if the row was (`ifInserted`).
 *
 * Each limited service states its limits next to it (`Limit`); its operation declares them for the API
 * (`docs.limits`), and worker/test/parallel-limits.test.ts fires parallel requests at every declared one and
 * asserts the exact count.
 */
export interface Limit {
  /** An SQL expression counting what the limit is about, e.g. `SELECT count(*) FROM canaries WHERE user_id = ?`. */
  count: string;
  params: readonly unknown[];
  max: number;
}

type Row = Record<string, unknown>;

/** A value as D1 stores it: times in ms (drizzle's timestamp_ms), booleans as 0/1, JSON as text. */
const toSql = (v: unknown) =>
  v instanceof Date ? v.getTime() : typeof v === 'boolean' ? (v ? 1 : 0) : v !== null && typeof v === 'object' ? JSON.stringify(v) : (v ?? null);

/** INSERT of `row` into `table` only while every limit holds (and `when`, an extra SQL condition, if given). */
export function insertWithinLimits(db: D1Database, table: string, row: Row, all: readonly Limit[], when?: { sql: string; params: readonly unknown[] }) {
  // An unlimited plan's Infinity is no condition (and no SQL number).
  const limits = all.filter((l) => Number.isFinite(l.max));
  const columns = Object.keys(row);
  const conditions = [...limits.map((l) => `(${l.count}) < ?`), ...(when ? [when.sql] : [])];
  return db
    .prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${columns.map(() => '?').join(', ')}${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''}`,
    )
    .bind(...columns.map((c) => toSql(row[c])), ...limits.flatMap((l) => [...l.params, l.max]), ...(when?.params ?? []));
}

/** "Only if the row `id` of `table` exists (was inserted in this batch)": the condition for what follows it. */
export const ifInserted = (table: string, id: string) => ({ sql: `EXISTS (SELECT 1 FROM ${table} WHERE id = ?)`, params: [id] as const });

/** Whether a statement of the batch wrote its row. */
export const wrote = (result: D1Result | undefined) => (result?.meta.changes ?? 0) > 0;

/** The first limit that no longer holds (read now), to name it in the refusal; null when all hold. */
export async function brokenLimit<L extends Limit>(db: D1Database, limits: readonly L[]): Promise<L | null> {
  for (const l of limits) {
    if (!Number.isFinite(l.max)) continue;
    const row = await db
      .prepare(`SELECT (${l.count}) AS n`)
      .bind(...l.params)
      .first<{ n: number }>();
    if ((row?.n ?? 0) >= l.max) return l;
  }
  return null;
}
