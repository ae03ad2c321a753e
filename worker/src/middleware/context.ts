import type { User } from '@afterword/db/schema';
import type { Bindings, ServiceContext } from '../env';
import type { ApiScope } from '../api/route-doc';

/** A signed-in person (browser session): every scope. */
export interface SessionPrincipal {
  user: User;
  via: 'session';
  sessionId: string;
  scopes: '*';
}

/**
 * A developer API key (docs/decisions/api-keys.md), already held to the key policy by `authenticate`:
 * it reached the route only because ROUTE_DOCS opens it to keys with one of `scopes`.
 */
export interface KeyPrincipal {
  user: User;
  via: 'key';
  keyId: string;
  scopes: readonly ApiScope[];
  /** `afw_test_` key: acts on the caller's data but must never trigger a real delivery. */
  sandbox: boolean;
  /**
   * A key has no session. Reading this throws 403 ("API keys cannot manage keys, webhooks or the
   * account"), so session-only code that reads `principal.sessionId` fails closed for a key.
   */
  readonly sessionId: never;
}

/**
 * Who is calling: one principal for sessions and API keys (`via`). Procedures declare what they need
 * (`requirePrincipal`, `requireSession`) rather than checking the transport.
 */
export type Principal = SessionPrincipal | KeyPrincipal;

export interface AppVariables {
  requestId: string;
  services: ServiceContext;
  principal: Principal | null;
  clientAddress: string;
}

export type AppEnv = { Bindings: Bindings; Variables: AppVariables };
