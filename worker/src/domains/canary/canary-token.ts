import type { Bindings } from '../../env';
import { AppError } from '../../lib/errors';
import { toBase64Url } from '../../lib/encoding';
import { hashSecret } from '../../lib/secrets';

/**
 * A canary's check-in token: 256 bits of HMAC-SHA256(server secret, canary id and token version),
 * base64url. The database keeps only its SHA-256 (for lookup); the owner can still see and copy the
 * token (SPEC: list items carry it) because the server re-derives it. Bumping `token_version` rotates
 * one canary's token; changing the secret rotates all of them.
 */
const DEV_SECRET = 'afterword-local-development-canary-token-secret';

function tokenSecret(env: Bindings): string {
  if (env.CANARY_TOKEN_SECRET) return env.CANARY_TOKEN_SECRET;
  if ((env.APP_ENV as string) !== 'production') return DEV_SECRET;
  throw new AppError('INTERNAL', 'CANARY_TOKEN_SECRET is not configured');
}

const keys = new Map<string, Promise<CryptoKey>>();
function hmacKey(secret: string) {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    keys.set(secret, key);
  }
  return key;
}

export async function deriveCanaryToken(env: Bindings, canaryId: string, version: number): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(tokenSecret(env)), new TextEncoder().encode(`canary:${canaryId}:${version}`));
  return toBase64Url(new Uint8Array(mac));
}

/** What the canaries table stores and looks a presented token up by. */
export const canaryTokenHash = hashSecret;

/** A presented token must look like one before it costs a query. */
export const isWellFormedCanaryToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);
