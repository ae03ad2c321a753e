import { type D1Trip, interceptD1 } from '../../src/lib/intercept-d1';

/**
 * The D1 binding with every round trip counted (a statement's first/all/run/raw, a batch, an exec):
 * what a path costs, independent of timing.
 */
export function countingD1(db: D1Database): { db: D1Database; trips: D1Trip[] } {
  const trips: D1Trip[] = [];
  return { db: interceptD1(db, (trip) => void trips.push(trip)), trips };
}
