import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { createServiceContext } from '../wiring/service-context';
import { clientAddress } from '../lib/client-address';
import type { AppEnv } from './context';

/** Gives every request an id (echoed as X-Request-Id), its services (with its waitUntil) and the client's address. */
export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const requestId = crypto.randomUUID();
  c.set('requestId', requestId);
  const execution = executionContextOf(c);
  c.set('services', createServiceContext(c.env, undefined, execution ? (work) => execution.waitUntil(work) : undefined));
  c.set('principal', null);
  c.set('clientAddress', clientAddress(c.env, c.req.header('cf-connecting-ip')));
  await next();
  c.header('X-Request-Id', requestId);
});

/** The request's execution context; a caller without one (an in-process test of the app) gets undefined. */
function executionContextOf(c: Context<AppEnv>): Pick<ExecutionContext, 'waitUntil'> | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}
