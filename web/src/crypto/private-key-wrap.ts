/*
 * The private key at rest: PKCS#8 bytes sealed with AES-GCM-256 under a key derived from the password
 * (PBKDF2) or from the recovery key (HKDF). The server stores both wraps and can open neither. The KDF
 * parameters travel inside the wrap so the iteration count can be raised later without a format change;
 * they are not authenticated separately — changing them only derives a different key, and the GCM tag
 * (AAD E2EE_PRIVATE_KEY_AAD) then refuses the wrap.
 */
import {
  E2EE_PRIVATE_KEY_AAD,
  E2EE_RECOVERY_INFO,
  E2EE_VERSION,
  PBKDF2_ITERATIONS,
  ZWrappedPrivateKey,
  type TWrappedPrivateKey,
} from '@afterword/worker/contracts/e2ee';
import { aesGcmDecrypt, aesGcmEncrypt } from './aes-gcm';
import { base64urlToBytes, bytesToBase64url, utf8Encode, type Bytes } from './encoding';
import { FormatError, TamperedError, WrongKeyError } from './errors';
import { deriveRecoveryWrapKey, derivePasswordWrapKey, newSalt } from './kdf';
import { exportPrivatePkcs8, importPrivatePkcs8 } from './keys';
import { parseRecoveryKey } from './recovery-key';

/** What unlocks a wrap: the password, or the recovery key (its text as typed, or its 32 bytes). */
export type UnlockSecret = { password: string } | { recoveryKey: string | Uint8Array };

const AAD = utf8Encode(E2EE_PRIVATE_KEY_AAD);

function recoveryBytes(key: string | Uint8Array): Uint8Array {
  return typeof key === 'string' ? parseRecoveryKey(key) : key;
}

/**
 * Seals a private key (a CryptoKey that is extractable, or its PKCS#8 bytes) under a password or a
 * recovery key. `iterations` exists for tests and future raises; production uses PBKDF2_ITERATIONS.
 */
export async function wrapPrivateKey(
  privateKey: CryptoKey | Uint8Array,
  secret: UnlockSecret,
  options: { iterations?: number } = {},
): Promise<TWrappedPrivateKey> {
  const pkcs8 = privateKey instanceof Uint8Array ? privateKey : await exportPrivatePkcs8(privateKey);
  // Refuse to seal something that is not a P-256 private key: a wrap of garbage would only fail years later.
  await importPrivatePkcs8(pkcs8);
  const salt = newSalt();
  let wrapped: TWrappedPrivateKey;
  if ('password' in secret) {
    const iterations = options.iterations ?? PBKDF2_ITERATIONS;
    const key = await derivePasswordWrapKey(secret.password, salt, iterations);
    const { iv, ciphertext } = await aesGcmEncrypt(key, pkcs8, AAD);
    wrapped = {
      v: E2EE_VERSION,
      kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations, salt: bytesToBase64url(salt) },
      alg: 'A256GCM',
      iv: bytesToBase64url(iv),
      ct: bytesToBase64url(ciphertext),
    };
  } else {
    const key = await deriveRecoveryWrapKey(recoveryBytes(secret.recoveryKey), salt);
    const { iv, ciphertext } = await aesGcmEncrypt(key, pkcs8, AAD);
    wrapped = {
      v: E2EE_VERSION,
      kdf: { name: 'HKDF', hash: 'SHA-256', salt: bytesToBase64url(salt), info: E2EE_RECOVERY_INFO },
      alg: 'A256GCM',
      iv: bytesToBase64url(iv),
      ct: bytesToBase64url(ciphertext),
    };
  }
  return ZWrappedPrivateKey.parse(wrapped);
}

/** Parses a wrap (object or JSON text) with the contract; FormatError says what is wrong. */
export function parseWrappedPrivateKey(input: unknown): TWrappedPrivateKey {
  let json = input;
  if (typeof input === 'string') {
    try {
      json = JSON.parse(input);
    } catch {
      throw new FormatError('the wrapped private key is not JSON');
    }
  }
  const parsed = ZWrappedPrivateKey.safeParse(json);
  if (!parsed.success)
    throw new FormatError(`not a v1 wrapped private key: ${parsed.error.issues[0]?.path.join('.') || 'root'} ${parsed.error.issues[0]?.message ?? ''}`.trim());
  return parsed.data;
}

/** Opens a wrap to its PKCS#8 bytes (needed to re-wrap); WrongKeyError if the secret does not open it. */
export async function unwrapPrivateKeyPkcs8(input: unknown, secret: UnlockSecret): Promise<Bytes> {
  const wrapped = parseWrappedPrivateKey(input);
  const salt = base64urlToBytes(wrapped.kdf.salt, 'kdf.salt', 16);
  const iv = base64urlToBytes(wrapped.iv, 'iv', 12);
  const ct = base64urlToBytes(wrapped.ct, 'ct');
  let key: CryptoKey;
  if (wrapped.kdf.name === 'PBKDF2') {
    if (!('password' in secret)) throw new WrongKeyError('this wrap opens with the password, not the recovery key');
    key = await derivePasswordWrapKey(secret.password, salt, wrapped.kdf.iterations);
  } else {
    if (!('recoveryKey' in secret)) throw new WrongKeyError('this wrap opens with the recovery key, not a password');
    key = await deriveRecoveryWrapKey(recoveryBytes(secret.recoveryKey), salt);
  }
  let pkcs8: Bytes;
  try {
    pkcs8 = await aesGcmDecrypt(key, iv, ct, AAD);
  } catch (err) {
    if (err instanceof TamperedError) throw new WrongKeyError(wrapped.kdf.name === 'PBKDF2' ? 'wrong password' : 'wrong recovery key');
    throw err;
  }
  await importPrivatePkcs8(pkcs8); // authenticated but not a key would be a sender bug: say so, do not return it
  return pkcs8;
}

/**
 * Opens a wrap to a usable private key. Non-extractable unless asked: once unwrapped, the key only
 * needs to derive ECDH secrets, and a non-extractable CryptoKey cannot be read out by page scripts.
 */
export async function unwrapPrivateKey(input: unknown, secret: UnlockSecret, options: { extractable?: boolean } = {}): Promise<CryptoKey> {
  return importPrivatePkcs8(await unwrapPrivateKeyPkcs8(input, secret), options.extractable ?? false);
}

/**
 * Password change (old password → new) or recovery (recovery key → new password): opens with one
 * secret and seals again with another, with a new salt and IV. The private key itself does not change,
 * so every message sealed for it stays readable.
 */
export async function rewrapPrivateKey(
  input: unknown,
  from: UnlockSecret,
  to: UnlockSecret,
  options: { iterations?: number } = {},
): Promise<TWrappedPrivateKey> {
  const pkcs8 = await unwrapPrivateKeyPkcs8(input, from);
  return wrapPrivateKey(pkcs8, to, options);
}
