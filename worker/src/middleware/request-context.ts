import { createMiddleware } from 'hono/factory';
import { createServiceContext } from '../env';
import type { AppEnv } from './context';

/** Gives every request an id (echoed as X-Request-Id), its services and the client's address. */
export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const requestId = crypto.randomUUID();
  c.set('requestId', requestId);
  c.set('services', createServiceContext(c.env));
  c.set('principal', null);
  // Cloudflare sets CF-Connecting-IP at the edge (clients cannot forge it there); wrangler dev sets it too.
  c.set('clientAddress', c.req.header('cf-connecting-ip') ?? 'unknown');
  await next();
  c.header('X-Request-Id', requestId);
});
