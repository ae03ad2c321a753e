/**
 * VAPID (RFC 8292): the application server identifies itself to push services with an ES256 JWT.
 *
 *   Authorization: vapid t=<JWT>, k=<base64url uncompressed P-256 public key (65 bytes)>
 *   JWT header {"typ":"JWT","alg":"ES256"}; claims
 *     aud = origin of the push resource URL (scheme://host[:port]),
 *     exp = now + 12 h (RFC 8292 section 2: MUST NOT be more than 24 h from the time of the request;
 *           12 h leaves room for clock skew on either side),
 *     sub = contact URI, `mailto:` or `https:`.
 *
 * Key formats (env):
 *   VAPID_PUBLIC_KEY  base64url of the raw uncompressed public point (65 bytes, starts with 0x04) — the
 *                     same string the web app passes to `PushManager.subscribe({applicationServerKey})`.
 *   VAPID_PRIVATE_KEY base64url of the raw 32-byte private scalar (the JWK `d` member).
 *   VAPID_SUBJECT     `mailto:ops@example.com` or `https://example.com/contact`.
 * `generateVapidKeys()` makes a pair in exactly these formats. WebCrypto only.
 */
import { fromBase64Url, toBase64Url } from '../../lib/encoding';
import { pointToJwkXY } from './encrypt';

/** Twelve hours, half the RFC 8292 maximum. */
export const VAPID_TOKEN_SECONDS = 12 * 60 * 60;

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN = { name: 'ECDSA', hash: 'SHA-256' } as const;
const te = new TextEncoder();

/** VAPID configuration as stored in env (see the module comment for the formats). */
export interface VapidConfig {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** Imported, ready to sign. */
export interface VapidSigner {
  publicKey: string;
  subject: string;
  key: CryptoKey;
}

/** A fresh VAPID key pair: `{publicKey, privateKey}` base64url, in the env formats above. */
export async function generateVapidKeys(): Promise<{ publicKey: string; privateKey: string }> {
  const pair = (await crypto.subtle.generateKey(ECDSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
  const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
  if (!jwk.d) throw new Error('vapid: private key export failed');
  return { publicKey: toBase64Url(raw), privateKey: jwk.d };
}

export function validSubject(subject: string): boolean {
  return /^mailto:[^\s@]+@[^\s@]+$/.test(subject) || /^https:\/\/[^\s]+$/.test(subject);
}

/**
 * Import and check a VAPID configuration: the subject's form, the public point, the private scalar,
 * and that the two halves belong together (a test signature must verify with the public key).
 */
export async function importVapid(config: VapidConfig): Promise<VapidSigner> {
  if (!validSubject(config.subject)) throw new Error('VAPID_SUBJECT must be a mailto: or https: URI');
  const point = fromBase64Url(config.publicKey);
  const d = fromBase64Url(config.privateKey);
  if (d.length !== 32) throw new Error('VAPID_PRIVATE_KEY must be base64url of the 32-byte private scalar');
  const xy = pointToJwkXY(point); // throws if not a 65-byte uncompressed point
  let key: CryptoKey;
  try {
    key = await crypto.subtle.importKey('jwk', { kty: 'EC', crv: 'P-256', ...xy, d: config.privateKey, ext: false }, ECDSA, false, ['sign']);
  } catch {
    // workerd (BoringSSL) already refuses a JWK whose d does not belong to x, y.
    throw new Error('VAPID_PUBLIC_KEY does not match VAPID_PRIVATE_KEY (or a key is malformed)');
  }
  const pub = await crypto.subtle.importKey('raw', point, ECDSA, false, ['verify']);
  const probe = te.encode('afterword vapid key check');
  const sig = await crypto.subtle.sign(SIGN, key, probe);
  if (!(await crypto.subtle.verify(SIGN, pub, sig, probe))) {
    throw new Error('VAPID_PUBLIC_KEY does not match VAPID_PRIVATE_KEY');
  }
  return { publicKey: config.publicKey, subject: config.subject, key };
}

/** `aud`: the origin of the push resource URL. */
export function audienceOf(endpoint: string): string {
  return new URL(endpoint).origin;
}

/** A signed ES256 VAPID JWT for `endpoint`. `nowSeconds` is injectable for tests. */
export async function vapidJwt(signer: VapidSigner, endpoint: string, nowSeconds: number = Math.floor(Date.now() / 1000)): Promise<string> {
  const header = toBase64Url(te.encode(JSON.stringify({ typ: 'JWT', alg: 'ES256' })));
  const claims = toBase64Url(te.encode(JSON.stringify({ aud: audienceOf(endpoint), exp: nowSeconds + VAPID_TOKEN_SECONDS, sub: signer.subject })));
  const input = `${header}.${claims}`;
  // WebCrypto's ECDSA signature is already the JWS form (r || s, 64 bytes; RFC 7518 section 3.4).
  const sig = new Uint8Array(await crypto.subtle.sign(SIGN, signer.key, te.encode(input)));
  return `${input}.${toBase64Url(sig)}`;
}

/** The `Authorization` header value (RFC 8292 section 3). */
export async function vapidAuthorization(signer: VapidSigner, endpoint: string, nowSeconds?: number): Promise<string> {
  return `vapid t=${await vapidJwt(signer, endpoint, nowSeconds)}, k=${signer.publicKey}`;
}
