import type { Bindings } from '../../env';
import { AppError } from '../../lib/errors';
import { fromBase64Url, fromHex, toBase64Url, toHex } from '../../lib/encoding';
import { constantTimeEqual, hashSecret } from '../../lib/secrets';

/**
 * A canary's check-in token (docs/decisions/canary-engine.md, "Tokens").
 *
 * The secret part is 256 bits of HMAC-SHA256(server secret, `canary:<id>:<version>`). The token shown
 * to owners (v2, 70 characters) carries the canary's id and token version in the clear before that MAC:
 * base64url(id 16 bytes ‖ version 4 bytes ‖ MAC 32 bytes). So a check-in finds the canary's Durable
 * Object from the token alone, verified with the secret — no D1 lookup on the hot path — and the object
 * refuses a version it no longer holds (rotated) or a canary it knows is gone (deleted).
 *
 * Tokens made before v2 (43 characters: the MAC alone) keep working: D1 stores SHA-256 of the MAC form
 * for every canary, so such a token is looked up by its hash (one D1 read) and then goes to the object.
 * The owner can still see and copy the token (list items carry it: docs/api.md) because the server re-derives
 * it; changing the secret rotates every token.
 */
const DEV_SECRET = 'afterword-local-development-canary-token-secret';

function tokenSecret(env: Pick<Bindings, 'CANARY_TOKEN_SECRET' | 'APP_ENV'>): string {
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

export type TokenEnv = Pick<Bindings, 'CANARY_TOKEN_SECRET' | 'APP_ENV'>;

/** The MAC of `canary:<id>:<version>`. */
function tokenMac(env: TokenEnv, canaryId: string, version: number): Promise<Uint8Array> {
  return macWithTokenSecret(env, 'canary', new TextEncoder().encode(`${canaryId}:${version}`));
}

/**
 * HMAC-SHA256 with the same server secret, of `label:` followed by `data` — another kind of token signed by it
 * (a warning's check-in link: check-in-links.ts). The label keeps each kind's MACs apart from the others'.
 */
export async function macWithTokenSecret(env: TokenEnv, label: string, data: Uint8Array): Promise<Uint8Array> {
  const prefix = new TextEncoder().encode(`${label}:`);
  const message = new Uint8Array(prefix.byteLength + data.byteLength);
  message.set(prefix, 0);
  message.set(data, prefix.byteLength);
  return new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(tokenSecret(env)), message));
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const uuidBytes = (id: string) => fromHex(id.replaceAll('-', ''));
export function uuidOf(bytes: Uint8Array): string {
  const hex = toHex(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The token an owner sees and copies (v2). */
export async function deriveCanaryToken(env: TokenEnv, canaryId: string, version: number): Promise<string> {
  if (!UUID.test(canaryId)) throw new Error('canary ids are UUIDs');
  const bytes = new Uint8Array(52);
  bytes.set(uuidBytes(canaryId), 0);
  new DataView(bytes.buffer).setUint32(16, version);
  bytes.set(await tokenMac(env, canaryId, version), 20);
  return toBase64Url(bytes);
}

/** The MAC-only form (the token before v2), whose SHA-256 D1 stores for looking such tokens up. */
export async function legacyCanaryToken(env: TokenEnv, canaryId: string, version: number): Promise<string> {
  return toBase64Url(await tokenMac(env, canaryId, version));
}

/** What D1's `token_hash` holds: SHA-256 of the MAC-only form. */
export const canaryTokenHash = hashSecret;

export type PresentedToken = { form: 'v2'; canaryId: string; version: number } | { form: 'legacy'; hash: string } | { form: 'invalid' };

/**
 * Reads a presented token. A v2 token is verified here, with the secret, in constant time: a forged or
 * altered one is `invalid` without any query. A legacy token can only be checked against D1 (its hash).
 */
export async function readCanaryToken(env: TokenEnv, token: string): Promise<PresentedToken> {
  if (/^[A-Za-z0-9_-]{43}$/.test(token)) return { form: 'legacy', hash: await canaryTokenHash(token) };
  if (!/^[A-Za-z0-9_-]{70}$/.test(token)) return { form: 'invalid' };
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = fromBase64Url(token);
  } catch {
    return { form: 'invalid' }; // non-zero trailing bits: not a spelling deriveCanaryToken makes
  }
  if (bytes.byteLength !== 52) return { form: 'invalid' };
  const canaryId = uuidOf(bytes.subarray(0, 16));
  const version = new DataView(bytes.buffer, bytes.byteOffset).getUint32(16);
  const expected = await tokenMac(env, canaryId, version);
  return constantTimeEqual(expected, bytes.subarray(20)) ? { form: 'v2', canaryId, version } : { form: 'invalid' };
}
