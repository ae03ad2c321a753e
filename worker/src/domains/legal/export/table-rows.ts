import type { TableExport } from './export-plan';

const PAGE = 500;

/**
 * One table's rows for the user, a page at a time (keyset on rowid, or on the primary key of a table stored
 * without one), so an account of any size streams through a flat amount of memory. Omitted columns are
 * dropped from each row before it is yielded (a key column among them still orders the pages).
 */
export async function* tableRows(db: D1Database, plan: TableExport, userId: string): AsyncGenerator<Record<string, unknown>> {
  const key = plan.key ?? null;
  const omit = new Set(['__rowid', ...(plan.omit ?? [])]);
  const order = key ? key.join(', ') : 'rowid';
  const computed = Object.entries(plan.asItStands ?? {});
  const select = [key ? '*' : 'rowid AS __rowid, *', ...computed.map(([, sql], i) => `(${sql}) AS __stands_${i}`)].join(', ');
  // Row values compare column by column, as the key orders the rows.
  const after = key ? `(${key.join(', ')}) > (${key.map((_, i) => `?${i + 2}`).join(', ')})` : 'rowid > ?2';
  let last: unknown[] | null = null;
  for (;;) {
    const where = last ? `(${plan.where}) AND ${after}` : `(${plan.where})`;
    const { results } = await db
      .prepare(`SELECT ${select} FROM ${plan.table} t WHERE ${where} ORDER BY ${order} LIMIT ${PAGE}`)
      .bind(userId, ...(last ?? []))
      .all<Record<string, unknown>>();
    for (const row of results) yield exported(row, omit, computed);
    if (results.length < PAGE) break;
    const end: Record<string, unknown> = results[results.length - 1]!;
    last = key ? key.map((k) => end[k]) : [end.__rowid];
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

/** A row as exported: omitted columns dropped, each column the plan works out replaced by its value as it stands. */
function exported(row: Record<string, unknown>, omit: Set<string>, computed: [string, string][]): Record<string, unknown> {
  const out = Object.fromEntries(Object.entries(row).filter(([k]) => !omit.has(k) && !k.startsWith('__stands_')));
  computed.forEach(([column], i) => {
    out[column] = row[`__stands_${i}`];
  });
  return out;
}
