/** One round trip to the database: a statement's first/all/run/raw, a batch, an exec or a dump. */
export type D1Trip = 'first' | 'all' | 'run' | 'raw' | 'batch' | 'exec' | 'dump';

const STATEMENT_TRIPS = new Set<PropertyKey>(['first', 'all', 'run', 'raw']);
const DATABASE_TRIPS = new Set<PropertyKey>(['batch', 'exec', 'dump']);

/**
 * The D1 binding with `before(trip)` awaited ahead of every round trip, which then goes to the real
 * database. For seeing what a path costs, independent of timing: the bench's far-away D1 waits there
 * (d1-delay.ts) and tests count the trips. Statements prepared through it are unwrapped again for a batch.
 */
export function interceptD1(db: D1Database, before: (trip: D1Trip) => unknown): D1Database {
  const realOf = new WeakMap<object, D1PreparedStatement>();
  const passThrough = (target: object, prop: PropertyKey) => {
    const value = Reflect.get(target, prop, target);
    return typeof value === 'function' ? value.bind(target) : value;
  };
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        if (prop === 'bind') return (...args: unknown[]) => wrap(target.bind(...args));
        if (STATEMENT_TRIPS.has(prop)) {
          return async (...args: unknown[]) => {
            await before(prop as D1Trip);
            return (target[prop as keyof D1PreparedStatement] as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return passThrough(target, prop);
      },
    });
    realOf.set(proxy, stmt);
    return proxy;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return (query: string) => wrap(target.prepare(query));
      if (prop === 'batch') {
        return async (statements: D1PreparedStatement[]) => {
          await before('batch');
          return target.batch(statements.map((s) => realOf.get(s) ?? s));
        };
      }
      if (DATABASE_TRIPS.has(prop)) {
        return async (...args: unknown[]) => {
          await before(prop as D1Trip);
          return (target[prop as keyof D1Database] as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return passThrough(target, prop);
    },
  });
}
