import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema';

export { schema };
const build = (d1: D1Database) => drizzle(d1, { schema });
export type Db = ReturnType<typeof build>;

/**
 * One drizzle instance per D1 binding. Building one walks the whole schema (drizzle's relational config of
 * every table) — about 6 % of the Worker's CPU in the system simulation's profile when every request, queue
 * delivery and object call built its own (docs/performance.md "The Worker's own CPU"). The instance keeps no
 * state of its own between queries, so the calls on one binding share it; a wrapped binding (a test's
 * instrumented one, an object's delayed one) gets its own.
 */
const byBinding = new WeakMap<D1Database, Db>();
export function createDb(d1: D1Database): Db {
  let db = byBinding.get(d1);
  if (!db) {
    db = build(d1);
    byBinding.set(d1, db);
  }
  return db;
}
