/**
 * Web Push payload encryption: RFC 8291 ("Message Encryption for Web Push") over the RFC 8188
 * `aes128gcm` content coding, on WebCrypto only (runs in workerd; no node: APIs).
 *
 * Body = header || one record:
 *   header = salt(16) | rs(uint32 BE) | idlen(1) = 65 | keyid = application-server ECDH public key (65)
 *   record = AES-128-GCM(CEK, NONCE, plaintext || 0x02 || zero padding)   (0x02: last-record delimiter)
 * Keys (RFC 8291 section 3.4):
 *   ecdh_secret = ECDH(as_private, ua_public)
 *   IKM   = HKDF(salt=auth_secret, ikm=ecdh_secret, info="WebPush: info\0" || ua_public || as_public, L=32)
 *   CEK   = HKDF(salt, IKM, "Content-Encoding: aes128gcm\0", 16)
 *   NONCE = HKDF(salt, IKM, "Content-Encoding: nonce\0", 12)   (a single record: sequence number 0)
 * The RFC 8291 Appendix A vector reproduces byte for byte when its salt and sender key pair are
 * injected (test/channels/push-crypto.test.ts).
 */
import { fromBase64Url, toBase64Url } from '../../lib/encoding';

/** RFC 8291 section 4: a push service need not accept more than 4096 octets of body; 86 header + 1 delimiter + 16 tag. */
export const MAX_PUSH_PLAINTEXT_BYTES = 4096 - 86 - 1 - 16;
/** The record size written in the header (the Appendix A example uses 4096). */
export const DEFAULT_RECORD_SIZE = 4096;

const te = new TextEncoder();
const ECDH = { name: 'ECDH', namedCurve: 'P-256' } as const;

/** An application-server (sender) ECDH key pair: the raw uncompressed public point (65 bytes) and its private CryptoKey. */
export interface SenderKeyPair {
  publicKey: Uint8Array;
  privateKey: CryptoKey;
}

export interface EncryptOptions {
  /** 16 random bytes by default; injectable for known-answer tests only. */
  salt?: Uint8Array;
  /** A fresh ephemeral key pair per message by default; injectable for known-answer tests only. */
  sender?: SenderKeyPair;
  /** Record size in the header (default 4096). Must exceed plaintext + padding + 17. */
  recordSize?: number;
  /** Zero octets of padding added after the delimiter (default 0). */
  padding?: number;
}

export function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let i = 0;
  for (const p of parts) {
    out.set(p, i);
    i += p.length;
  }
  return out;
}

/** Copy into a fresh ArrayBuffer-backed view (WebCrypto's BufferSource typing wants one). */
function buf(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

async function hmac(key: Uint8Array, data: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const k = await crypto.subtle.importKey('raw', buf(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, buf(data)));
}

/** HKDF-SHA-256 (RFC 5869) for L ≤ 32: one HMAC block is all Web Push needs. */
export async function hkdf(salt: Uint8Array, ikm: Uint8Array, info: Uint8Array, length: number): Promise<Uint8Array<ArrayBuffer>> {
  if (length > 32) throw new Error('hkdf: length > 32 not needed here');
  const prk = await hmac(salt, ikm);
  const okm = await hmac(prk, concat(info, new Uint8Array([1])));
  return okm.slice(0, length);
}

/** Split an uncompressed P-256 point (0x04 || X || Y) into JWK coordinates. */
export function pointToJwkXY(point: Uint8Array): { x: string; y: string } {
  if (point.length !== 65 || point[0] !== 0x04) throw new Error('expected an uncompressed P-256 point (65 bytes)');
  return { x: toBase64Url(point.subarray(1, 33)), y: toBase64Url(point.subarray(33, 65)) };
}

/**
 * Import an ECDH P-256 private key from its raw scalar `d` (32 bytes) and public point. WebCrypto
 * cannot import a raw private scalar, so it goes through a JWK.
 */
export async function importEcdhPrivateKey(publicPoint: Uint8Array, d: Uint8Array): Promise<CryptoKey> {
  const jwk: JsonWebKey = { kty: 'EC', crv: 'P-256', ...pointToJwkXY(publicPoint), d: toBase64Url(d), ext: false };
  return crypto.subtle.importKey('jwk', jwk, ECDH, false, ['deriveBits']);
}

export async function generateSenderKeyPair(): Promise<SenderKeyPair> {
  const pair = (await crypto.subtle.generateKey(ECDH, true, ['deriveBits'])) as CryptoKeyPair;
  const publicKey = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
  return { publicKey, privateKey: pair.privateKey };
}

function bytesOf(v: Uint8Array | string): Uint8Array {
  return typeof v === 'string' ? fromBase64Url(v) : v;
}

/**
 * Encrypt `plaintext` for a subscription whose keys are `uaPublic` (p256dh, 65 bytes) and
 * `authSecret` (16 bytes), either as bytes or base64url as a browser's PushSubscription gives them.
 * Returns the complete `aes128gcm` request body.
 */
export async function encryptPushPayload(
  plaintext: Uint8Array | string,
  keys: { p256dh: Uint8Array | string; auth: Uint8Array | string },
  options: EncryptOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const data = typeof plaintext === 'string' ? te.encode(plaintext) : plaintext;
  const uaPublic = bytesOf(keys.p256dh);
  const authSecret = bytesOf(keys.auth);
  if (uaPublic.length !== 65 || uaPublic[0] !== 0x04) throw new Error('p256dh is not an uncompressed P-256 point');
  if (authSecret.length !== 16) throw new Error('auth secret must be 16 bytes');
  const padding = options.padding ?? 0;
  const rs = options.recordSize ?? DEFAULT_RECORD_SIZE;
  // RFC 8291 section 4: one record, and rs greater than plaintext + delimiter + padding + tag.
  if (data.length + 1 + padding + 16 > rs) throw new Error('payload does not fit one record');
  const salt = options.salt ?? crypto.getRandomValues(new Uint8Array(16));
  if (salt.length !== 16) throw new Error('salt must be 16 bytes');
  const sender = options.sender ?? (await generateSenderKeyPair());

  // Importing the receiver's point also checks that it is on P-256 (RFC 8291 section 7).
  const uaKey = await crypto.subtle.importKey('raw', buf(uaPublic), ECDH, false, []);
  // The runtime reads the standard `public` member; workers-types names it `$public`, hence the cast.
  const ecdhParams = { name: 'ECDH', public: uaKey } as unknown as SubtleCryptoDeriveKeyAlgorithm;
  const ecdhSecret = new Uint8Array(await crypto.subtle.deriveBits(ecdhParams, sender.privateKey, 256));
  const keyInfo = concat(te.encode('WebPush: info\0'), uaPublic, sender.publicKey);
  const ikm = await hkdf(authSecret, ecdhSecret, keyInfo, 32);
  const cek = await hkdf(salt, ikm, te.encode('Content-Encoding: aes128gcm\0'), 16);
  const nonce = await hkdf(salt, ikm, te.encode('Content-Encoding: nonce\0'), 12);

  const record = concat(data, new Uint8Array([0x02]), new Uint8Array(padding));
  const aesKey = await crypto.subtle.importKey('raw', cek, { name: 'AES-GCM' }, false, ['encrypt']);
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce }, aesKey, record));

  const header = new Uint8Array(16 + 4 + 1 + sender.publicKey.length);
  header.set(salt, 0);
  new DataView(header.buffer).setUint32(16, rs, false);
  header[20] = sender.publicKey.length;
  header.set(sender.publicKey, 21);
  return concat(header, ciphertext);
}
