import { createMiddleware } from 'hono/factory';
import { findSessionUser } from '../domains/auth/sessions';
import { AppError } from '../lib/errors';
import type { AppEnv, Principal } from './context';

/** Reads `Authorization: Bearer …` into a principal; a missing or bad token leaves it null. */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header('authorization');
  const token = header?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (token && token.length <= 200) {
    const found = await findSessionUser(c.get('services'), token);
    if (found) c.set('principal', { user: found.user, via: 'session', sessionId: found.sessionId, scopes: '*' });
  }
  await next();
});

export const UNAUTHENTICATED = 'Not authenticated';

/** The principal of a route that needs one: 401 otherwise. */
export function requirePrincipal(principal: Principal | null): Principal {
  if (!principal) throw new AppError('UNAUTHORIZED', UNAUTHENTICATED, { 'WWW-Authenticate': 'Bearer' });
  return principal;
}
