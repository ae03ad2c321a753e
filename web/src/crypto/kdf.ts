/*
 * Key derivation. Two different tools for two different inputs:
 * - a password is low-entropy, so PBKDF2-HMAC-SHA-256 with many iterations makes each guess expensive
 *   (WebCrypto has no Argon2/scrypt; PBKDF2 is the strongest KDF every browser offers);
 * - a recovery key or an ECDH secret is already 256 bits of entropy, so one HKDF-SHA-256 is enough.
 * Every derived key is a non-extractable AES-GCM-256 key: it wraps or unwraps, and can never be read out.
 */
import { E2EE_RECOVERY_INFO, E2EE_WRAP_INFO, PBKDF2_ITERATIONS } from '@afterword/worker/contracts/e2ee';
import { randomBytes, utf8Encode, type Bytes } from './encoding';
import { FormatError } from './errors';

export const KDF_SALT_BYTES = 16;

/** A fresh 16-byte salt, stored next to what it protects so the same input never derives the same key twice. */
export function newSalt(): Bytes {
  return randomBytes(KDF_SALT_BYTES);
}

function checkSalt(salt: Uint8Array): void {
  if (salt.length !== KDF_SALT_BYTES) throw new FormatError(`a salt must be ${KDF_SALT_BYTES} bytes, not ${salt.length}`);
}

/**
 * The password is NFKC-normalised before UTF-8 encoding, as the server does before scrypt
 * (worker/src/lib/kdf.ts): the same password typed on two keyboards can arrive as different code points
 * (precomposed vs combining accents, full-width forms), and must unlock the key wherever it signs in.
 */
export async function derivePasswordWrapKey(password: string, salt: Uint8Array, iterations: number = PBKDF2_ITERATIONS): Promise<CryptoKey> {
  if (typeof password !== 'string' || password.length === 0) throw new FormatError('the password is empty');
  checkSalt(salt);
  if (!Number.isInteger(iterations) || iterations < 100_000 || iterations > 10_000_000) throw new FormatError('PBKDF2 iterations out of range');
  const base = await crypto.subtle.importKey('raw', utf8Encode(password.normalize('NFKC')), 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt: new Uint8Array(salt), iterations }, base, { name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
}

/** HKDF-SHA-256(ikm, salt, info) → AES-GCM-256; `info` separates the purposes of keys from one secret. */
export async function hkdfAesKey(ikm: Uint8Array, salt: Uint8Array, info: string): Promise<CryptoKey> {
  checkSalt(salt);
  const base = await crypto.subtle.importKey('raw', new Uint8Array(ikm), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(salt), info: utf8Encode(info) },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** The recovery key's 32 bytes → the key that wraps the private key (info E2EE_RECOVERY_INFO). */
export async function deriveRecoveryWrapKey(recoveryKey: Uint8Array, salt: Uint8Array): Promise<CryptoKey> {
  if (recoveryKey.length !== 32) throw new FormatError('a recovery key is 32 bytes');
  return hkdfAesKey(recoveryKey, salt, E2EE_RECOVERY_INFO);
}

/** An ECDH shared secret Z → the key that wraps one reader's content key (info E2EE_WRAP_INFO). */
export async function deriveRecipientWrapKey(sharedSecret: Uint8Array, salt: Uint8Array): Promise<CryptoKey> {
  if (sharedSecret.length !== 32) throw new FormatError('an ECDH P-256 shared secret is 32 bytes');
  return hkdfAesKey(sharedSecret, salt, E2EE_WRAP_INFO);
}
