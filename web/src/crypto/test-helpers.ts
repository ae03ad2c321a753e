// Shared by the crypto tests only (not exported from index.ts).
import type { Bytes } from './encoding';

export function hex(text: string): Bytes {
  const clean = text.replace(/\s+/g, '');
  return new Uint8Array(clean.match(/../g)?.map((h) => parseInt(h, 16)) ?? []);
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A copy with one bit flipped at `index` (negative counts from the end). */
export function flipBit(bytes: Uint8Array, index: number): Bytes {
  const copy = new Uint8Array(bytes);
  const i = index < 0 ? copy.length + index : index;
  copy[i] = copy[i]! ^ 0x01;
  return copy;
}

/** Flips one bit inside a base64url field, keeping it canonical base64url of the same length. */
export function flipB64u(text: string, byteIndex = 0): string {
  const pad = '='.repeat((4 - (text.length % 4)) % 4);
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/') + pad);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  const flipped = flipBit(bytes, byteIndex);
  return btoa(String.fromCharCode(...flipped))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export const KID_A = '0b6f7d4e-2f55-4c3a-9a51-3f0f8a2d7c11';
export const KID_B = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
export const KID_C = '16fd2706-8baf-433b-82eb-8c7fada847da';
