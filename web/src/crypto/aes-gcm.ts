/*
 * AES-GCM-256 with a fresh random 12-byte IV per encryption (docs/product.md "End-to-end encryption"). GCM's
 * confidentiality and integrity both collapse if an IV ever repeats under one key, so callers can never pass an
 * IV in: it is drawn here from crypto.getRandomValues. 96 random bits keep the collision chance negligible for the
 * few encryptions any one key sees (one content key seals one payload plus one audio clip).
 */
import { randomBytes, type Bytes } from './encoding';
import { FormatError, TamperedError } from './errors';

export const AES_KEY_BYTES = 32;
export const AES_GCM_IV_BYTES = 12;
/** WebCrypto's default and the only tag length the formats use (128 bits, appended to the ciphertext). */
export const AES_GCM_TAG_BYTES = 16;

export interface AesGcmSealed {
  iv: Bytes;
  /** Ciphertext followed by the 16-byte tag (WebCrypto's layout, kept as is in every format). */
  ciphertext: Bytes;
}

function params(iv: Bytes, aad?: Uint8Array): AesGcmParams {
  // An absent AAD and an empty AAD are the same in GCM; omitting it keeps every engine happy.
  return aad && aad.length > 0 ? { name: 'AES-GCM', iv, additionalData: new Uint8Array(aad), tagLength: 128 } : { name: 'AES-GCM', iv, tagLength: 128 };
}

/** A fresh random AES-GCM-256 key. Extractable by default because content keys get wrapped for readers. */
export async function generateAesKey(extractable = true): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, extractable, ['encrypt', 'decrypt']);
}

/** Imports exactly 32 raw bytes; anything else is refused so a 128-bit key can never slip in. */
export async function importAesKey(raw: Uint8Array, extractable = false): Promise<CryptoKey> {
  if (raw.length !== AES_KEY_BYTES) throw new FormatError(`an AES-256 key must be ${AES_KEY_BYTES} bytes, not ${raw.length}`);
  return crypto.subtle.importKey('raw', new Uint8Array(raw), { name: 'AES-GCM' }, extractable, ['encrypt', 'decrypt']);
}

export async function exportAesKey(key: CryptoKey): Promise<Bytes> {
  return new Uint8Array(await crypto.subtle.exportKey('raw', key));
}

/** Encrypts under a new random IV; `aad` is authenticated but not encrypted (it binds the data's purpose). */
export async function aesGcmEncrypt(key: CryptoKey, plaintext: Uint8Array, aad?: Uint8Array): Promise<AesGcmSealed> {
  const iv = randomBytes(AES_GCM_IV_BYTES);
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt(params(iv, aad), key, new Uint8Array(plaintext)));
  return { iv, ciphertext };
}

/**
 * Decrypts and authenticates. A wrong key, IV, AAD or any altered byte throws TamperedError — WebCrypto
 * releases no plaintext unless the tag verifies. Callers that unwrap keys turn this into WrongKeyError.
 */
export async function aesGcmDecrypt(key: CryptoKey, iv: Uint8Array, ciphertext: Uint8Array, aad?: Uint8Array): Promise<Bytes> {
  if (iv.length !== AES_GCM_IV_BYTES) throw new FormatError(`the IV must be ${AES_GCM_IV_BYTES} bytes, not ${iv.length}`);
  if (ciphertext.length < AES_GCM_TAG_BYTES) throw new FormatError('the ciphertext is shorter than its authentication tag');
  try {
    return new Uint8Array(await crypto.subtle.decrypt(params(new Uint8Array(iv), aad), key, new Uint8Array(ciphertext)));
  } catch {
    throw new TamperedError('decryption failed: the data was altered or this is not its key');
  }
}
