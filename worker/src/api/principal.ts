import { AppError } from '../lib/errors';
import { requirePrincipal, requireSession } from '../middleware/require-principal';
import type { Principal } from '../middleware/context';
import type { Access } from './operation';

/** The caller an operation's `access` admits, over either transport; 401 or 403 otherwise. */
export function principalFor(access: Access, principal: Principal | null): Principal | null {
  switch (access.kind) {
    case 'public':
      return principal;
    case 'session':
      return requireSession(principal);
    case 'session-or-key':
      return requirePrincipal(principal);
    case 'key': {
      const caller = requirePrincipal(principal);
      if (caller.via !== 'key') throw new AppError('FORBIDDEN', access.refusal);
      return caller;
    }
  }
}
