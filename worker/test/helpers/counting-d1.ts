import { type D1Trip, interceptD1 } from '../../src/lib/intercept-d1';

/**
 * The D1 binding with every round trip counted (a statement's first/all/run/raw, a batch, an exec):
 * what a path costs, independent of timing.
 */
export function countingD1(db: D1Database): { db: D1Database; trips: D1Trip[] } {
  const trips: D1Trip[] = [];
  return { db: interceptD1(db, (trip) => void trips.push(trip)), trips };
}

/** The D1 binding with the rows its batches write summed (D1's own count, `meta.rows_written`). */
export function rowsWrittenThrough(db: D1Database) {
  let rows = 0;
  let batches = 0;
  const proxy = new Proxy(db, {
    get(target, prop) {
      if (prop === 'batch')
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements);
          batches += 1;
          for (const r of results) rows += r.meta.rows_written ?? 0;
          return results;
        };
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: proxy, rows: () => rows, batches: () => batches };
}
