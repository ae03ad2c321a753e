/*
 * A user's long-term ECDH P-256 key pair (docs/server-rules.md "End-to-end encryption"). The public half
 * travels as a JWK in the contract's shape; the private half only ever leaves memory as PKCS#8 bytes that
 * private-key-wrap.ts seals at once. P-256 because every browser's WebCrypto implements ECDH on it (X25519 is
 * not yet universal).
 */
import { ZPublicKeyJwk, type TPublicKeyJwk } from '@afterword/worker/contracts/e2ee';
import { bytesToBase64url, bytesToHex, utf8Encode, type Bytes } from './encoding';
import { FormatError } from './errors';

const EC = { name: 'ECDH', namedCurve: 'P-256' } as const;

/** A new key pair. The private key is extractable only so it can be exported once and wrapped. */
export async function generateKeyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(EC, true, ['deriveBits']);
}

/** The public key as {kty, crv, x, y} — no `ext`/`key_ops`, so the JWK is canonical and matches everywhere. */
export async function exportPublicJwk(publicKey: CryptoKey): Promise<TPublicKeyJwk> {
  if (publicKey.type !== 'public') throw new FormatError('exportPublicJwk takes a public key');
  const jwk = await crypto.subtle.exportKey('jwk', publicKey);
  return { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! };
}

/**
 * Validates with the contract (which refuses `d`, i.e. a private key handed over by mistake) and imports.
 * WebCrypto itself refuses a point that is not on the curve, which stops invalid-curve attacks.
 */
export async function importPublicJwk(jwk: unknown): Promise<CryptoKey> {
  const parsed = ZPublicKeyJwk.safeParse(jwk);
  if (!parsed.success)
    throw new FormatError(`not a P-256 public key JWK: ${parsed.error.issues[0]?.path.join('.') || 'root'} ${parsed.error.issues[0]?.message ?? ''}`.trim());
  const { kty, crv, x, y } = parsed.data;
  try {
    return await crypto.subtle.importKey('jwk', { kty, crv, x, y }, EC, true, []);
  } catch {
    throw new FormatError('the public key is not a point on P-256');
  }
}

export async function exportPrivatePkcs8(privateKey: CryptoKey): Promise<Bytes> {
  if (privateKey.type !== 'private') throw new FormatError('exportPrivatePkcs8 takes a private key');
  return new Uint8Array(await crypto.subtle.exportKey('pkcs8', privateKey));
}

/** Non-extractable by default: after unwrapping, the key only needs to derive, never to leave again. */
export async function importPrivatePkcs8(pkcs8: Uint8Array, extractable = false): Promise<CryptoKey> {
  try {
    return await crypto.subtle.importKey('pkcs8', new Uint8Array(pkcs8), EC, extractable, ['deriveBits']);
  } catch {
    throw new FormatError('not a PKCS#8 ECDH P-256 private key');
  }
}

async function thumbprintDigest(jwk: TPublicKeyJwk): Promise<Bytes> {
  // Validated first: the canonical JSON is built by hand, so only checked base64url may go into it.
  const parsed = ZPublicKeyJwk.safeParse(jwk);
  if (!parsed.success) throw new FormatError('not a P-256 public key JWK');
  const { crv, kty, x, y } = parsed.data;
  return new Uint8Array(await crypto.subtle.digest('SHA-256', utf8Encode(`{"crv":"${crv}","kty":"${kty}","x":"${x}","y":"${y}"}`)));
}

/**
 * RFC 7638 JWK thumbprint (SHA-256 over {"crv","kty","x","y"} in that order, no spaces), base64url.
 * Two people comparing this value out of band detect a server that swapped a public key.
 */
export async function publicKeyThumbprint(jwk: TPublicKeyJwk): Promise<string> {
  return bytesToBase64url(await thumbprintDigest(jwk));
}

/** The same digest as 16 groups of 4 hex digits, easier to read aloud than base64url. */
export async function publicKeyFingerprint(jwk: TPublicKeyJwk): Promise<string> {
  const hex = bytesToHex(await thumbprintDigest(jwk));
  return hex.match(/.{4}/g)!.join(' ');
}
