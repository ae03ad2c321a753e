import { createMiddleware } from 'hono/factory';
import { createServiceContext } from '../env';
import { clientAddress } from '../lib/client-address';
import type { AppEnv } from './context';

/** Gives every request an id (echoed as X-Request-Id), its services and the client's address. */
export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const requestId = crypto.randomUUID();
  c.set('requestId', requestId);
  c.set('services', createServiceContext(c.env));
  c.set('principal', null);
  c.set('clientAddress', clientAddress(c.env, c.req.header('cf-connecting-ip')));
  await next();
  c.header('X-Request-Id', requestId);
});
