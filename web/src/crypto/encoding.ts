/*
 * Byte ↔ text conversions used by every format. Pure and synchronous on purpose: they do no
 * cryptography, and the UI needs them while rendering (showing a key, building a download URL).
 * Decoding is strict — the contract's regexes check the alphabet and length, but only a decoder can see
 * non-canonical trailing bits, and accepting two spellings of one value would make equality checks lie.
 * The codec is @oslojs/encoding, the library worker/src/lib/encoding.ts uses too.
 */
import { decodeBase64IgnorePadding, decodeBase64urlIgnorePadding, encodeBase64, encodeBase64urlNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import { FormatError } from './errors';

/** Bytes whose buffer is a plain ArrayBuffer: what WebCrypto's BufferSource accepts under TS 5.9. */
export type Bytes = Uint8Array<ArrayBuffer>;

const B64 = /^[A-Za-z0-9+/]*$/;
const B64URL = /^[A-Za-z0-9_-]*$/;

/** The library's strict decoder behind this module's own messages (tests and callers read them). */
function decode(text: string, url: boolean, what: string): Bytes {
  if (text.length % 4 === 1) throw new FormatError(`${what} has an impossible base64 length`);
  // Checked here, not by the library: it skips '=' inside a group and names no character.
  if (!(url ? B64URL : B64).test(text)) throw new FormatError(`${what} contains a character outside the base64${url ? 'url' : ''} alphabet`);
  try {
    return (url ? decodeBase64urlIgnorePadding : decodeBase64IgnorePadding)(text) as Bytes;
  } catch {
    throw new FormatError(`${what} is not canonical base64 (non-zero trailing bits)`);
  }
}

/** RFC 4648 §5 base64url without padding: the encoding of every binary field of the v1 formats. */
export function bytesToBase64url(bytes: Uint8Array): string {
  return encodeBase64urlNoPadding(bytes);
}

/** Strict inverse of bytesToBase64url; `expectedLength` (bytes) turns a wrong size into a FormatError. */
export function base64urlToBytes(text: string, what = 'value', expectedLength?: number): Bytes {
  if (typeof text !== 'string') throw new FormatError(`${what} must be a base64url string`);
  const bytes = decode(text, true, what);
  if (expectedLength !== undefined && bytes.length !== expectedLength)
    throw new FormatError(`${what} must encode ${expectedLength} bytes, not ${bytes.length}`);
  return bytes;
}

/** RFC 4648 §4 base64 with padding: the upload form sends the attachment IV this way. */
export function bytesToBase64(bytes: Uint8Array): string {
  return encodeBase64(bytes);
}

/** Strict inverse of bytesToBase64 (padding optional, so a value that lost its '=' still decodes). */
export function base64ToBytes(text: string, what = 'value'): Bytes {
  const stripped = text.replace(/={1,2}$/, '');
  if (stripped.length !== text.length && text.length % 4 !== 0) throw new FormatError(`${what} has wrong base64 padding`);
  return decode(stripped, false, what);
}

/** Lowercase hex: fingerprints read aloud, multipart boundaries. */
export function bytesToHex(bytes: Uint8Array): string {
  return encodeHexLowerCase(bytes);
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
