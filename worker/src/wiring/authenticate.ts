import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { findSessionUser } from '../domains/auth/sessions';
import { authenticateApiKey, type KeyCall } from '../domains/developer/authenticate-key';
import { looksLikeApiKey } from '../domains/developer/key-format';
import { refuseChangesWhileArchived } from '../domains/inactivity/read-only';
import { AppError } from '../lib/errors';
import { enforceApiKeyPolicy, keyRouteAccess } from './api-key-policy';
import { KEYS_CANNOT_MANAGE } from '../middleware/require-principal';
export { requirePrincipal, requireSession } from '../middleware/require-principal';
import type { AppEnv, KeyPrincipal } from '../middleware/context';

/**
 * The one authentication middleware. `Authorization: Bearer …`:
 * - a token shaped like an API key (`afw_live_…` / `afw_test_…`) → the key path: a malformed key, a bad
 *   checksum, an unknown or revoked key answer 401 at once; a valid one becomes a key principal held to
 *   the key policy (scopes, quota, X-RateLimit-*; wiring/api-key-policy.ts); on a public route the
 *   key is ignored (no principal, not metered);
 * - anything else → the session path, unchanged: a missing or bad token leaves the principal null and
 *   each route decides (requirePrincipal → 401).
 * Either way, an account archived by the inactivity policy is read-only (domains/inactivity/read-only.ts).
 */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header('authorization');
  const token = header?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (token && looksLikeApiKey(token)) {
    const access = keyRouteAccess(c.req.method, c.req.path);
    if (access.kind === 'public') return next();
    const call = await authenticateApiKey(c.get('services'), token, access.kind === 'open' ? { meter: true, scope: access.scope } : { meter: false }, (work) =>
      deferred(c, work),
    );
    c.set('principal', keyPrincipal(call));
    refuseChangesWhileArchived(call.user, c.req.method);
    return enforceApiKeyPolicy(c, next, access, call);
  }
  if (token && token.length <= 200) {
    const found = await findSessionUser(c.get('services'), token);
    if (found) {
      c.set('principal', { user: found.user, via: 'session', sessionId: found.sessionId, scopes: '*' });
      refuseChangesWhileArchived(found.user, c.req.method);
    }
  }
  await next();
});

/** The request's waitUntil; a caller without an execution context (an in-process test) just lets the work run. */
function deferred(c: Context<AppEnv>, work: Promise<unknown>) {
  const defer = c.get('services').defer;
  if (defer) defer(work);
  else void work;
}

/** A key principal; `sessionId` is a throwing getter on the prototype (not copied by spreads or JSON). */
class ApiKeyPrincipal implements KeyPrincipal {
  readonly via = 'key' as const;
  constructor(
    readonly user: KeyPrincipal['user'],
    readonly keyId: string,
    readonly scopes: KeyPrincipal['scopes'],
    readonly sandbox: boolean,
  ) {}
  get sessionId(): never {
    throw new AppError('FORBIDDEN', KEYS_CANNOT_MANAGE);
  }
}

export const keyPrincipal = (call: Pick<KeyCall, 'user' | 'keyId' | 'scopes' | 'sandbox'>): KeyPrincipal =>
  new ApiKeyPrincipal(call.user, call.keyId, call.scopes, call.sandbox);

export { UNAUTHENTICATED } from '../lib/errors';
