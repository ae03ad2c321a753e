import type { TableExport } from './export-plan';

const PAGE = 500;

/**
 * One table's rows for the user, a page at a time (keyset on rowid), so an account of any size streams
 * through a flat amount of memory. Omitted columns never leave D1's answer.
 */
export async function* tableRows(db: D1Database, plan: TableExport, userId: string): AsyncGenerator<Record<string, unknown>> {
  const omit = new Set(['__rowid', ...(plan.omit ?? [])]);
  let after = -1;
  for (;;) {
    const { results } = await db
      .prepare(`SELECT rowid AS __rowid, * FROM ${plan.table} WHERE (${plan.where}) AND rowid > ?2 ORDER BY rowid LIMIT ${PAGE}`)
      .bind(userId, after)
      .all<Record<string, unknown>>();
    for (const row of results) yield Object.fromEntries(Object.entries(row).filter(([k]) => !omit.has(k)));
    if (results.length < PAGE) break;
    after = Number(results[results.length - 1]!.__rowid);
  }
}

/** The same rows as one JSON array (data/<file>.json of the archive). */
export async function* tableJson(db: D1Database, plan: TableExport, userId: string): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const row of tableRows(db, plan, userId)) {
    yield `${first ? '\n' : ',\n'}${JSON.stringify(row)}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}
