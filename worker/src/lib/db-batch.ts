import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '@afterword/db';

/**
 * Runs statements as one D1 batch — one round trip, and atomic: D1 runs a batch as a transaction, so
 * a change and the activity row that records it land together or not at all.
 */
export async function runBatch(db: Db, statements: BatchItem<'sqlite'>[]) {
  if (!statements.length) return [];
  return db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
}

/** The ids a batch's `RETURNING id` statements returned. */
export const returnedIds = (results: D1Result[]) =>
  results.flatMap((r) => (r.results as { id?: string }[]).map((row) => row.id).filter((id): id is string => !!id));
