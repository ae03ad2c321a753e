import type { Bindings } from '../env';
import { interceptD1 } from './intercept-d1';

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
  const wrapped = { ...env, DB: interceptD1(env.DB, () => pause(delay)) };
  delayed.set(env, wrapped);
  return wrapped;
}

const delayed = new WeakMap<object, object>();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
