import type { User } from '@afterword/db/schema';
import type { Bindings, ServiceContext } from '../env';

/**
 * Who is calling. API keys (developer platform) will add `via: 'key'` with real scopes; sessions
 * carry every scope. Procedures declare what they need rather than checking the transport.
 */
export interface Principal {
  user: User;
  via: 'session';
  sessionId: string;
  scopes: '*';
}

export interface AppVariables {
  requestId: string;
  services: ServiceContext;
  principal: Principal | null;
  clientAddress: string;
}

export type AppEnv = { Bindings: Bindings; Variables: AppVariables };
