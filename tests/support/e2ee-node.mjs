// An independent implementation of Afterword's E2EE v1 formats, written from docs/security/e2ee.md only
// (no import from web/, no WebCrypto: node:crypto's OpenSSL primitives), so that what the browser seals
// is checked by a second reading of the spec. Used by tests/api/e2ee-node-vectors.test.mjs, by
// web/src/crypto/fixtures/make-node-fixture.mjs, and by browser journeys (Chromium seals, Node opens).
//
// API (all crypto functions async; binary values are Buffers, format fields base64url strings):
//   generateKeyPair() → {privateKey: KeyObject, publicJwk, privateJwk, pkcs8}
//   importPrivateKey(KeyObject | JWK with d | PKCS#8 bytes) → KeyObject; publicJwkOf(key); thumbprint(jwk)
//   sealEnvelope({payload, readers: [{kid, publicKey: JWK}], contentKey?}) → {envelope, contentKey}
//   openEnvelope(envelope | JSON text, {kid, privateKey}) → {payload, contentKey};  openMessage(…) → payload
//   sealAudio(contentKey, bytes) → {iv, ciphertext};  openAudio(contentKey, iv, ciphertext) → Buffer
//   wrapPrivateKey(privateKey, {password} | {recoveryKey}, {iterations?}) → wrapped
//   unwrapPrivateKey(wrapped, {password} | {recoveryKey}) → {pkcs8, privateKey}
//   generateRecoveryKey() → {bytes, text};  formatRecoveryKey(bytes);  parseRecoveryKey(text) → Buffer
//   encryptFile(bytes) → {key, keyText, iv, ivText, ivBase64, ciphertext};  decryptFile(key, iv, ciphertext)
// Errors: E2eeNodeError with .code 'format' | 'wrong-key' | 'tampered' | 'not-a-recipient' | 'malformed-recovery-key'.
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdf as hkdfCb,
  KeyObject,
  pbkdf2 as pbkdf2Cb,
  randomBytes,
} from 'node:crypto';
import { promisify } from 'node:util';

const pbkdf2 = promisify(pbkdf2Cb);
const hkdf = promisify(hkdfCb);

export const E2EE_VERSION = 1;
export const CONTENT_AAD = 'afterword/e2ee/v1';
export const AUDIO_AAD = 'afterword/e2ee/v1/audio';
export const PRIVATE_KEY_AAD = 'afterword/e2ee/v1/private-key';
export const WRAP_INFO = 'afterword/e2ee/v1/wrap';
export const RECOVERY_INFO = 'afterword/e2ee/v1/recovery';
export const PBKDF2_ITERATIONS = 600_000;
export const MAX_RECIPIENTS = 4;
export const WRAP_ALG = 'ECDH-ES+HKDF-SHA256+A256GCM';

export class E2eeNodeError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'E2eeNodeError';
    this.code = code;
  }
}
const fail = (code, message) => {
  throw new E2eeNodeError(code, message);
};

// ---- encoding (doc §4): base64url without padding, strict -------------------------------------------

export function b64u(bytes) {
  return Buffer.from(bytes).toString('base64url');
}

/** Strict decode: alphabet, no padding, length ≢ 1 mod 4, canonical (re-encoding gives the same text). */
export function fromB64u(text, what = 'value', length) {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) fail('format', `${what} is not base64url without padding`);
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text) fail('format', `${what} is not canonical base64url`);
  if (length !== undefined && bytes.length !== length) fail('format', `${what} must encode ${length} bytes, not ${bytes.length}`);
  return bytes;
}

const utf8 = (s) => Buffer.from(s, 'utf8');

function utf8Strict(bytes, what) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return fail('format', `${what} is not valid UTF-8`);
  }
}

// ---- AES-256-GCM (doc §2): 12-byte random IV, 16-byte tag appended ---------------------------------

function gcmSeal(key, plaintext, aad) {
  if (key.length !== 32) fail('format', 'AES-256 keys are 32 bytes');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
  if (aad !== undefined) cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { iv, ciphertext };
}

/** Throws E2eeNodeError(failCode) when the tag does not verify. */
function gcmOpen(key, iv, sealed, aad, failCode, message) {
  if (key.length !== 32) fail('format', 'AES-256 keys are 32 bytes');
  if (iv.length !== 12) fail('format', 'IVs are 12 bytes');
  if (sealed.length < 16) fail('format', 'ciphertext shorter than its tag');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  if (aad !== undefined) decipher.setAAD(aad);
  try {
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
  } catch {
    return fail(failCode, message);
  }
}

// ---- keys (doc §5) ----------------------------------------------------------------------------------

function checkPublicJwk(jwk, what = 'public key') {
  if (!jwk || typeof jwk !== 'object' || Array.isArray(jwk)) fail('format', `${what} is not a JWK object`);
  const allowed = new Set(['kty', 'crv', 'x', 'y', 'ext', 'key_ops']);
  for (const k of Object.keys(jwk)) if (!allowed.has(k)) fail('format', `${what} has a member "${k}" (a public JWK has kty, crv, x, y)`);
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256') fail('format', `${what} is not an EC P-256 key`);
  fromB64u(jwk.x, `${what}.x`, 32);
  fromB64u(jwk.y, `${what}.y`, 32);
  if (jwk.ext !== undefined && typeof jwk.ext !== 'boolean') fail('format', `${what}.ext must be a boolean`);
  if (jwk.key_ops !== undefined && !(Array.isArray(jwk.key_ops) && jwk.key_ops.every((o) => typeof o === 'string')))
    fail('format', `${what}.key_ops must be strings`);
}

function publicKeyFromJwk(jwk, what, failCode = 'format') {
  checkPublicJwk(jwk, what);
  try {
    return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' });
  } catch {
    return fail(failCode, `${what} is not a point on P-256`);
  }
}

export function publicJwkOf(key) {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const { kty, crv, x, y } = pub.export({ format: 'jwk' });
  return { kty, crv, x, y };
}

export async function generateKeyPair() {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKey,
    publicJwk: publicJwkOf(privateKey),
    privateJwk: privateKey.export({ format: 'jwk' }),
    pkcs8: privateKey.export({ type: 'pkcs8', format: 'der' }),
  };
}

/** A P-256 private key from a KeyObject, a JWK with `d`, or PKCS#8 DER bytes. */
export function importPrivateKey(input) {
  let key;
  try {
    if (input instanceof KeyObject) key = input;
    else if (input instanceof Uint8Array) key = createPrivateKey({ key: Buffer.from(input), format: 'der', type: 'pkcs8' });
    else if (input && typeof input === 'object' && typeof input.d === 'string') key = createPrivateKey({ key: input, format: 'jwk' });
  } catch {
    key = undefined;
  }
  if (key?.type !== 'private' || key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    fail('format', 'not an EC P-256 private key');
  return key;
}

/** RFC 7638 thumbprint, base64url. */
export function thumbprint(jwk) {
  checkPublicJwk(jwk);
  return b64u(createHash('sha256').update(`{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}","y":"${jwk.y}"}`).digest());
}

// ---- recovery key (doc §7) --------------------------------------------------------------------------

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function formatRecoveryKey(bytes) {
  if (bytes.length !== 32) fail('malformed-recovery-key', 'a recovery key is 32 bytes');
  let bits = '';
  for (const b of bytes) bits += b.toString(2).padStart(8, '0');
  bits = bits.padEnd(260, '0');
  let text = '';
  for (let i = 0; i < 260; i += 5) text += B32[parseInt(bits.slice(i, i + 5), 2)];
  return text.match(/.{4}/g).join('-');
}

export function parseRecoveryKey(text) {
  if (typeof text !== 'string') fail('malformed-recovery-key', 'the recovery key must be text');
  const compact = text.replace(/[\s-]/g, '').toUpperCase();
  if (compact.length === 0) fail('malformed-recovery-key', 'the recovery key is empty');
  for (const c of compact) if (!B32.includes(c)) fail('malformed-recovery-key', `the recovery key contains '${c}'`);
  if (compact.length !== 52) fail('malformed-recovery-key', `the recovery key has 52 characters, not ${compact.length}`);
  const bits = [...compact].map((c) => B32.indexOf(c).toString(2).padStart(5, '0')).join('');
  if (/1/.test(bits.slice(256))) fail('malformed-recovery-key', 'the last group of the recovery key is mistyped');
  const out = Buffer.alloc(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(bits.slice(i * 8, i * 8 + 8), 2);
  return out;
}

export async function generateRecoveryKey() {
  const bytes = randomBytes(32);
  return { bytes, text: formatRecoveryKey(bytes) };
}

// ---- wrapped private key (doc §6) -------------------------------------------------------------------

async function passwordWrapKey(password, salt, iterations) {
  if (typeof password !== 'string' || password.length === 0) fail('format', 'the password is empty');
  return pbkdf2(utf8(password.normalize('NFKC')), salt, iterations, 32, 'sha256');
}

async function hkdf32(ikm, salt, info) {
  return Buffer.from(await hkdf('sha256', ikm, salt, utf8(info), 32));
}

const recoveryBytes = (k) => (typeof k === 'string' ? parseRecoveryKey(k) : Buffer.from(k));

export async function wrapPrivateKey(privateKey, secret, { iterations = PBKDF2_ITERATIONS } = {}) {
  const pkcs8 = importPrivateKey(privateKey).export({ type: 'pkcs8', format: 'der' });
  const salt = randomBytes(16);
  if ('password' in secret) {
    const { iv, ciphertext } = gcmSeal(await passwordWrapKey(secret.password, salt, iterations), pkcs8, utf8(PRIVATE_KEY_AAD));
    return { v: 1, kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations, salt: b64u(salt) }, alg: 'A256GCM', iv: b64u(iv), ct: b64u(ciphertext) };
  }
  const { iv, ciphertext } = gcmSeal(await hkdf32(recoveryBytes(secret.recoveryKey), salt, RECOVERY_INFO), pkcs8, utf8(PRIVATE_KEY_AAD));
  return { v: 1, kdf: { name: 'HKDF', hash: 'SHA-256', salt: b64u(salt), info: RECOVERY_INFO }, alg: 'A256GCM', iv: b64u(iv), ct: b64u(ciphertext) };
}

export function checkWrappedPrivateKey(w) {
  if (typeof w === 'string') {
    try {
      w = JSON.parse(w);
    } catch {
      fail('format', 'the wrapped private key is not JSON');
    }
  }
  if (!w || typeof w !== 'object') fail('format', 'the wrapped private key is not an object');
  if (w.v !== 1) fail('format', 'wrapped private key: unsupported version');
  if (w.alg !== 'A256GCM') fail('format', 'wrapped private key: alg must be A256GCM');
  const kdf = w.kdf ?? {};
  if (kdf.hash !== 'SHA-256') fail('format', 'wrapped private key: kdf.hash must be SHA-256');
  fromB64u(kdf.salt, 'kdf.salt', 16);
  if (kdf.name === 'PBKDF2') {
    if (!Number.isInteger(kdf.iterations) || kdf.iterations < 100_000 || kdf.iterations > 10_000_000)
      fail('format', 'wrapped private key: iterations out of range');
  } else if (kdf.name === 'HKDF') {
    if (kdf.info !== RECOVERY_INFO) fail('format', 'wrapped private key: kdf.info');
  } else fail('format', 'wrapped private key: kdf.name must be PBKDF2 or HKDF');
  fromB64u(w.iv, 'iv', 12);
  const ct = fromB64u(w.ct, 'ct');
  if (ct.length < 100 || ct.length > 400) fail('format', 'wrapped private key: ct must be 100–400 bytes');
  return w;
}

export async function unwrapPrivateKey(wrapped, secret) {
  const w = checkWrappedPrivateKey(wrapped);
  const salt = fromB64u(w.kdf.salt, 'kdf.salt', 16);
  let key;
  if (w.kdf.name === 'PBKDF2') {
    if (!('password' in secret)) fail('wrong-key', 'this wrap opens with the password');
    key = await passwordWrapKey(secret.password, salt, w.kdf.iterations);
  } else {
    if (!('recoveryKey' in secret)) fail('wrong-key', 'this wrap opens with the recovery key');
    key = await hkdf32(recoveryBytes(secret.recoveryKey), salt, RECOVERY_INFO);
  }
  const pkcs8 = gcmOpen(
    key,
    fromB64u(w.iv, 'iv', 12),
    fromB64u(w.ct, 'ct'),
    utf8(PRIVATE_KEY_AAD),
    'wrong-key',
    w.kdf.name === 'PBKDF2' ? 'wrong password' : 'wrong recovery key',
  );
  return { pkcs8, privateKey: importPrivateKey(pkcs8) };
}

// ---- envelope (doc §8, §9) --------------------------------------------------------------------------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function checkPayload(p) {
  if (!p || typeof p !== 'object' || Array.isArray(p)) fail('format', 'payload is not an object');
  if (typeof p.text !== 'string') fail('format', 'payload.text must be a string');
  if (p.audio !== undefined) {
    fromB64u(p.audio?.iv, 'audio.iv', 12);
    if (typeof p.audio.type !== 'string' || p.audio.type.length > 100) fail('format', 'payload.audio.type');
  }
  if (p.attachments !== undefined) {
    if (!Array.isArray(p.attachments) || p.attachments.length > 20) fail('format', 'payload.attachments');
    for (const a of p.attachments) {
      fromB64u(a?.iv, 'attachments.iv', 12);
      fromB64u(a.key, 'attachments.key', 32);
      if (typeof a.name !== 'string' || a.name.length > 255 || typeof a.type !== 'string' || a.type.length > 100 || !Number.isInteger(a.size) || a.size < 0)
        fail('format', 'payload.attachments entry');
    }
  }
  return p;
}

/** Structure of an envelope as doc §8 states it; returns the parsed object. */
export function checkEnvelope(input) {
  let e = input;
  if (typeof input === 'string') {
    try {
      e = JSON.parse(input);
    } catch {
      fail('format', 'the envelope is not JSON');
    }
  }
  if (!e || typeof e !== 'object' || Array.isArray(e)) fail('format', 'the envelope is not an object');
  if (e.v !== 1) fail('format', 'unsupported envelope version');
  if (e.alg !== 'A256GCM') fail('format', 'envelope alg must be A256GCM');
  fromB64u(e.iv, 'iv', 12);
  const ct = fromB64u(e.ct, 'ct');
  if (ct.length < 16 || ct.length > 400_000) fail('format', 'ct must be 16–400,000 bytes');
  if (!Array.isArray(e.recipients) || e.recipients.length < 1 || e.recipients.length > MAX_RECIPIENTS)
    fail('format', `an envelope has 1–${MAX_RECIPIENTS} recipients`);
  for (const r of e.recipients) {
    if (!r || typeof r.kid !== 'string' || !UUID.test(r.kid)) fail('format', 'recipient kid must be a UUID');
    if (r.alg !== WRAP_ALG) fail('format', `recipient alg must be ${WRAP_ALG}`);
    checkPublicJwk(r.epk, 'epk');
    fromB64u(r.salt, 'salt', 16);
    fromB64u(r.iv, 'iv', 12);
    fromB64u(r.wrapped, 'wrapped', 48);
  }
  return e;
}

export async function sealEnvelope({ payload, readers, contentKey }) {
  checkPayload(payload);
  if (!Array.isArray(readers) || readers.length < 1 || readers.length > MAX_RECIPIENTS) fail('format', `1–${MAX_RECIPIENTS} readers`);
  if (new Set(readers.map((r) => r.kid.toLowerCase())).size !== readers.length) fail('format', 'duplicate reader');
  const key = contentKey ? Buffer.from(contentKey) : randomBytes(32);
  const content = gcmSeal(key, utf8(JSON.stringify(payload)), utf8(CONTENT_AAD));
  const recipients = [];
  for (const { kid, publicKey } of readers) {
    if (!UUID.test(kid)) fail('format', 'kid must be a UUID');
    const readerKey = publicKeyFromJwk(publicKey, 'reader public key');
    const { privateKey: eph } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const z = diffieHellman({ privateKey: eph, publicKey: readerKey });
    const salt = randomBytes(16);
    const { iv, ciphertext } = gcmSeal(await hkdf32(z, salt, WRAP_INFO), key, utf8(kid));
    recipients.push({ kid, alg: WRAP_ALG, epk: publicJwkOf(eph), salt: b64u(salt), iv: b64u(iv), wrapped: b64u(ciphertext) });
  }
  return { envelope: checkEnvelope({ v: 1, alg: 'A256GCM', iv: b64u(content.iv), ct: b64u(content.ciphertext), recipients }), contentKey: key };
}

export async function openEnvelope(input, { kid, privateKey }) {
  const e = checkEnvelope(input);
  const wrap = e.recipients.find((r) => r.kid.toLowerCase() === kid.toLowerCase());
  if (!wrap) fail('not-a-recipient', 'no wrap for this kid');
  const epk = publicKeyFromJwk(wrap.epk, 'epk', 'wrong-key');
  const z = diffieHellman({ privateKey: importPrivateKey(privateKey), publicKey: epk });
  const wrapKey = await hkdf32(z, fromB64u(wrap.salt, 'salt', 16), WRAP_INFO);
  const contentKey = gcmOpen(
    wrapKey,
    fromB64u(wrap.iv, 'iv', 12),
    fromB64u(wrap.wrapped, 'wrapped', 48),
    utf8(wrap.kid),
    'wrong-key',
    'the content key did not unwrap',
  );
  const plaintext = gcmOpen(contentKey, fromB64u(e.iv, 'iv', 12), fromB64u(e.ct, 'ct'), utf8(CONTENT_AAD), 'tampered', 'the content did not authenticate');
  let payload;
  try {
    payload = JSON.parse(utf8Strict(plaintext, 'payload'));
  } catch (err) {
    if (err instanceof E2eeNodeError) throw err;
    fail('format', 'the payload is not JSON');
  }
  return { payload: checkPayload(payload), contentKey };
}

export async function openMessage(input, reader) {
  return (await openEnvelope(input, reader)).payload;
}

// ---- audio (doc §10) and attachments (doc §11) ------------------------------------------------------

export async function sealAudio(contentKey, bytes) {
  return gcmSeal(Buffer.from(contentKey), Buffer.from(bytes), utf8(AUDIO_AAD));
}

export async function openAudio(contentKey, iv, ciphertext) {
  const ivBytes = typeof iv === 'string' ? fromB64u(iv, 'audio.iv', 12) : Buffer.from(iv);
  return gcmOpen(Buffer.from(contentKey), ivBytes, Buffer.from(ciphertext), utf8(AUDIO_AAD), 'tampered', 'the audio did not authenticate');
}

export async function encryptFile(bytes) {
  const key = randomBytes(32);
  const { iv, ciphertext } = gcmSeal(key, Buffer.from(bytes), undefined);
  return { key, keyText: b64u(key), iv, ivText: b64u(iv), ivBase64: iv.toString('base64'), ciphertext };
}

/** Key and IV as bytes or base64url text; no AAD (doc §11). */
export async function decryptFile(key, iv, ciphertext) {
  const k = typeof key === 'string' ? fromB64u(key, 'key', 32) : Buffer.from(key);
  const i = typeof iv === 'string' ? fromB64u(iv, 'iv', 12) : Buffer.from(iv);
  return gcmOpen(k, i, Buffer.from(ciphertext), undefined, 'tampered', 'the file did not authenticate');
}
