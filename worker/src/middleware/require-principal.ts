import { AppError, unauthenticated } from '../lib/errors';
import type { Principal, SessionPrincipal } from './context';

/** A session's or a key's answer when a key asks for what only a signed-in person may do. */
export const KEYS_CANNOT_MANAGE = 'API keys cannot manage keys, webhooks or the account';

/** The principal of a route that needs one (session or API key): 401 otherwise. */
export function requirePrincipal(principal: Principal | null): Principal {
  if (!principal) throw unauthenticated();
  return principal;
}

/** A signed-in person only: 401 without credentials, 403 for an API key (keys never manage keys, webhooks or the account). */
export function requireSession(principal: Principal | null): SessionPrincipal {
  const p = requirePrincipal(principal);
  if (p.via !== 'session') throw new AppError('FORBIDDEN', KEYS_CANNOT_MANAGE);
  return p;
}
