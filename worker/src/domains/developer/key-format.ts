import { API_KEY_CHECKSUM_LENGTH, API_KEY_LENGTH, API_KEY_LIVE_PREFIX, API_KEY_RANDOM_LENGTH, API_KEY_TEST_PREFIX } from '../../contracts/developer';

/**
 * The API key format (docs/decisions/api-keys.md), after GitHub's token format: a readable prefix
 * (`afw_live_` or `afw_test_` for sandbox keys), 32 random base62 characters (~190 bits) and a 6-character
 * base62 CRC32 of everything before it. The checksum lets the server (and secret scanners) refuse a
 * mistyped or made-up key without touching the database.
 */
export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const KEY_SHAPE = /^(afw_live_|afw_test_)([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE 802.3, the zlib / PNG one) of a string's UTF-8 bytes. */
export function crc32(text: string): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A non-negative integer in base62, left-padded with '0' to `width` (62^6 > 2^32, so 6 fits any CRC32). */
export function toBase62(value: number, width: number): string {
  let out = '';
  let v = value;
  do {
    out = BASE62[v % 62]! + out;
    v = Math.floor(v / 62);
  } while (v > 0);
  return out.padStart(width, '0');
}

export const keyChecksum = (body: string) => toBase62(crc32(body), API_KEY_CHECKSUM_LENGTH);

/** `length` uniformly random base62 characters (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

/** A new key: shown to its owner once, then only its hash and `displayPrefix` are kept. */
export function newApiKey(sandbox: boolean): string {
  const body = (sandbox ? API_KEY_TEST_PREFIX : API_KEY_LIVE_PREFIX) + randomBase62(API_KEY_RANDOM_LENGTH);
  return body + keyChecksum(body);
}

/** What the key list shows: the kind and the first four random characters (`afw_live_AbCd`). */
export const displayPrefix = (key: string) => key.slice(0, API_KEY_LIVE_PREFIX.length + 4);

/**
 * Whether a bearer token is meant as an API key (and so takes the key path, never the session one).
 * Session tokens are base64url of 32 random bytes: one starting with `afw_live_` is a 1-in-2^54 event.
 */
export const looksLikeApiKey = (token: string) => token.startsWith(API_KEY_LIVE_PREFIX) || token.startsWith(API_KEY_TEST_PREFIX);

/** The key's kind when its shape and checksum hold; null otherwise (then: 401, no lookup). */
export function parseApiKey(token: string): { sandbox: boolean } | null {
  if (token.length !== API_KEY_LENGTH) return null;
  const m = KEY_SHAPE.exec(token);
  if (!m) return null;
  if (keyChecksum(m[1]! + m[2]!) !== m[3]) return null;
  return { sandbox: m[1] === API_KEY_TEST_PREFIX };
}
