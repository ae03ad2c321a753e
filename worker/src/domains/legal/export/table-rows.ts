import type { TableExport } from './export-plan';

const PAGE = 500;

/**
 * One table's rows for the user as a JSON array, produced a page at a time (keyset on rowid), so an
 * account of any size streams through a flat amount of memory. Omitted columns never leave D1's answer.
 */
export async function* tableJson(db: D1Database, plan: TableExport, userId: string): AsyncGenerator<string> {
  const omit = new Set(['__rowid', ...(plan.omit ?? [])]);
  let after = -1;
  let first = true;
  yield '[';
  for (;;) {
    const { results } = await db
      .prepare(`SELECT rowid AS __rowid, * FROM ${plan.table} WHERE (${plan.where}) AND rowid > ?2 ORDER BY rowid LIMIT ${PAGE}`)
      .bind(userId, after)
      .all<Record<string, unknown>>();
    for (const row of results) {
      const kept = Object.fromEntries(Object.entries(row).filter(([k]) => !omit.has(k)));
      yield `${first ? '\n' : ',\n'}${JSON.stringify(kept)}`;
      first = false;
    }
    if (results.length < PAGE) break;
    after = Number(results[results.length - 1]!.__rowid);
  }
  yield first ? ']\n' : '\n]\n';
}
