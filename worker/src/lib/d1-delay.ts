import type { Bindings } from '../env';

/**
 * Bench only (docs/performance.md, "D1 far away"): D1_DELAY_MS adds that many milliseconds to every D1
 * round trip — each statement run and each batch — as if the database were on another continent, so a
 * benchmark shows which paths wait for D1 and which do not. Ignored in production and when unset.
 */
export function withD1Delay<E extends Pick<Bindings, 'DB' | 'APP_ENV'> & { D1_DELAY_MS?: string }>(env: E): E {
  const delay = Number(env.D1_DELAY_MS ?? 0);
  if (!(delay > 0) || (env.APP_ENV as string) === 'production') return env;
  const cached = delayed.get(env);
  if (cached) return cached as E;
  const wrapped = { ...env, DB: delayedD1(env.DB, delay) };
  delayed.set(env, wrapped);
  return wrapped;
}

const delayed = new WeakMap<object, object>();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function unwrap(stmt: D1PreparedStatement): D1PreparedStatement {
  return (stmt as unknown as { [RAW]?: D1PreparedStatement })[RAW] ?? stmt;
}
const RAW = Symbol('raw statement');

function delayedD1(db: D1Database, ms: number): D1Database {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') {
        return (sql: string) => {
          const raw = target.prepare(sql);
          const wrap = (s: D1PreparedStatement): D1PreparedStatement =>
            new Proxy(s, {
              get(t, p) {
                if (p === RAW) return t;
                if (p === 'bind') return (...args: unknown[]) => wrap(t.bind(...args));
                if (p === 'first' || p === 'all' || p === 'run' || p === 'raw') {
                  return async (...args: unknown[]) => {
                    await pause(ms);
                    return (t[p] as (...a: unknown[]) => unknown).apply(t, args);
                  };
                }
                return Reflect.get(t, p);
              },
            });
          return wrap(raw);
        };
      }
      if (prop === 'batch') {
        return async (statements: D1PreparedStatement[]) => {
          await pause(ms);
          return target.batch(statements.map(unwrap));
        };
      }
      return Reflect.get(target, prop);
    },
  });
}
