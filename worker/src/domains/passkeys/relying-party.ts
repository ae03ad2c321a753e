import { isLoopbackAddress } from '../../contracts/passkeys';
import { isProduction, type Bindings } from '../../env';

export interface RelyingParty {
  name: string;
  /** The domain passkeys are bound to. */
  id: string;
  /** The origin a browser's answer must come from. */
  origin: string;
}

/**
 * Who passkeys are made for: the app's own origin (PUBLIC_ORIGIN). Browsers refuse an IP address as a
 * WebAuthn domain, so a development Worker served at a loopback address binds its passkeys to `localhost`
 * on the same port (open the app at http://localhost:<port> to use them); production never rewrites.
 */
export function relyingParty(env: Pick<Bindings, 'PUBLIC_ORIGIN' | 'APP_ENV'>): RelyingParty {
  const url = new URL(env.PUBLIC_ORIGIN);
  if (!isProduction(env) && isLoopbackAddress(url.hostname)) url.hostname = 'localhost';
  return { name: 'Afterword', id: url.hostname, origin: url.origin };
}
