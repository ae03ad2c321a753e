/*
 * Byte ↔ text conversions used by every format. Pure and synchronous on purpose: they do no
 * cryptography, and the UI needs them while rendering (showing a key, building a download URL).
 * Decoding is strict — the contract's regexes check the alphabet and length, but only a decoder can see
 * non-canonical trailing bits, and accepting two spellings of one value would make equality checks lie.
 */
import { FormatError } from './errors';

/** Bytes whose buffer is a plain ArrayBuffer: what WebCrypto's BufferSource accepts under TS 5.9. */
export type Bytes = Uint8Array<ArrayBuffer>;

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function encode(bytes: Uint8Array, alphabet: string): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + alphabet[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]!;
  }
  return out;
}

function decode(text: string, alphabet: string, what: string): Bytes {
  if (text.length % 4 === 1) throw new FormatError(`${what} has an impossible base64 length`);
  const values = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const v = alphabet.indexOf(text[i]!);
    if (v < 0) throw new FormatError(`${what} contains a character outside the base64${alphabet === B64URL ? 'url' : ''} alphabet`);
    values[i] = v;
  }
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let o = 0;
  let i = 0;
  for (; i + 3 < text.length; i += 4) {
    const n = (values[i]! << 18) | (values[i + 1]! << 12) | (values[i + 2]! << 6) | values[i + 3]!;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
    out[o++] = n & 255;
  }
  const rest = text.length - i;
  if (rest === 2) {
    const n = (values[i]! << 18) | (values[i + 1]! << 12);
    if (n & 0xffff) throw new FormatError(`${what} is not canonical base64 (non-zero trailing bits)`);
    out[o++] = n >> 16;
  } else if (rest === 3) {
    const n = (values[i]! << 18) | (values[i + 1]! << 12) | (values[i + 2]! << 6);
    if (n & 0xff) throw new FormatError(`${what} is not canonical base64 (non-zero trailing bits)`);
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
  }
  return out;
}

/** RFC 4648 §5 base64url without padding: the encoding of every binary field of the v1 formats. */
export function bytesToBase64url(bytes: Uint8Array): string {
  return encode(bytes, B64URL);
}

/** Strict inverse of bytesToBase64url; `expectedLength` (bytes) turns a wrong size into a FormatError. */
export function base64urlToBytes(text: string, what = 'value', expectedLength?: number): Bytes {
  if (typeof text !== 'string') throw new FormatError(`${what} must be a base64url string`);
  const bytes = decode(text, B64URL, what);
  if (expectedLength !== undefined && bytes.length !== expectedLength)
    throw new FormatError(`${what} must encode ${expectedLength} bytes, not ${bytes.length}`);
  return bytes;
}

/** RFC 4648 §4 base64 with padding: the upload form sends the attachment IV this way. */
export function bytesToBase64(bytes: Uint8Array): string {
  const s = encode(bytes, B64);
  return s + '='.repeat((4 - (s.length % 4)) % 4);
}

/** Strict inverse of bytesToBase64 (padding optional, so a value that lost its '=' still decodes). */
export function base64ToBytes(text: string, what = 'value'): Bytes {
  const stripped = text.replace(/={1,2}$/, '');
  if (stripped.length !== text.length && text.length % 4 !== 0) throw new FormatError(`${what} has wrong base64 padding`);
  return decode(stripped, B64, what);
}

const encoder = new TextEncoder();
// fatal: invalid UTF-8 must fail loudly rather than turn into U+FFFD and parse as something else.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function utf8Encode(text: string): Bytes {
  return encoder.encode(text);
}

export function utf8Decode(bytes: Uint8Array, what = 'value'): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new FormatError(`${what} is not valid UTF-8`);
  }
}

/** Fresh bytes from the platform CSPRNG (crypto.getRandomValues); the only randomness source used. */
export function randomBytes(length: number): Bytes {
  return crypto.getRandomValues(new Uint8Array(length));
}

/** Constant-length comparison for small public values (IVs, fingerprints), without early exit. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
