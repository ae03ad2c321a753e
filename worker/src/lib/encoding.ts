/*
 * Byte ↔ text conversions for the Worker, on @oslojs/encoding (the same library web/src/crypto/encoding.ts
 * uses). Decoding is strict: a character outside the alphabet, bad padding or non-zero trailing bits is
 * refused, so one value has one spelling (docs/decisions/libraries.md).
 */
import { decodeBase64, decodeBase64urlIgnorePadding, decodeHex, encodeBase64, encodeBase64urlNoPadding, encodeHexLowerCase } from '@oslojs/encoding';

/** Standard base64 (with padding) of bytes. */
export const toBase64 = (bytes: Uint8Array): string => encodeBase64(bytes);

/** Standard base64 of a string's UTF-8 bytes (`btoa` alone only takes Latin-1). */
export const utf8ToBase64 = (text: string) => toBase64(new TextEncoder().encode(text));

/** base64url without padding: tokens and ids that travel in URLs and headers. */
export const toBase64Url = (bytes: Uint8Array): string => encodeBase64urlNoPadding(bytes);

/**
 * Bytes of standard base64 (padding required, no whitespace), or null when `text` is not that.
 * Pure (no Worker APIs): the shared contracts use it too.
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  // The library skips '=' anywhere in a group; padding belongs only at the end.
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  try {
    return decodeBase64(text) as Uint8Array<ArrayBuffer>;
  } catch {
    return null;
  }
}

/** Bytes of base64url (padding optional); throws on anything else. */
export const fromBase64Url = (s: string) => decodeBase64urlIgnorePadding(s) as Uint8Array<ArrayBuffer>;

export const toHex = (bytes: Uint8Array): string => encodeHexLowerCase(bytes);

/** Bytes of an even-length hex string; throws on anything else. */
export const fromHex = (hex: string) => decodeHex(hex) as Uint8Array<ArrayBuffer>;
