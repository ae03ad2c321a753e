/*
 * Encrypted attachments (docs/api.md: POST /upload/encrypted-file with `iv`, GET /download/decrypted-file/{id}?key=).
 * Each file gets its own random AES-GCM-256 key and 12-byte IV. No AAD, deliberately: the download
 * endpoint decrypts on the server with only `key` and `iv`, so anything else bound in would break it.
 * The key is shown to the sender (docs/product.md "End-to-end encryption") and, for E2EE messages, also sealed
 * in the payload's `attachments` so the recipient's browser can decrypt without ever sending the key to the server.
 */
import { aesGcmDecrypt, aesGcmEncrypt, exportAesKey, generateAesKey, importAesKey } from './aes-gcm';
import { base64urlToBytes, bytesToBase64, bytesToBase64url, type Bytes } from './encoding';

export interface EncryptedFile {
  /** The raw 256-bit key. */
  key: Bytes;
  /** The key as base64url (no padding): shown to the user, and the `?key=` form. */
  keyText: string;
  iv: Bytes;
  /** The IV as base64url (the payload's `attachments[].iv`). */
  ivText: string;
  /** The IV as padded standard base64, the form the upload field `iv` takes. */
  ivBase64: string;
  /** Ciphertext + 16-byte tag: the blob to upload. */
  ciphertext: Bytes;
}

export async function encryptFile(bytes: Uint8Array): Promise<EncryptedFile> {
  const cryptoKey = await generateAesKey(true);
  const key = await exportAesKey(cryptoKey);
  const { iv, ciphertext } = await aesGcmEncrypt(cryptoKey, bytes);
  return { key, keyText: bytesToBase64url(key), iv, ivText: bytesToBase64url(iv), ivBase64: bytesToBase64(iv), ciphertext };
}

/** Key and IV as bytes or base64url text. TamperedError if the blob was altered or the key is not its key. */
export async function decryptFile(key: Uint8Array | string, iv: Uint8Array | string, ciphertext: Uint8Array): Promise<Bytes> {
  const rawKey = typeof key === 'string' ? base64urlToBytes(key.trim(), 'key', 32) : key;
  const ivBytes = typeof iv === 'string' ? base64urlToBytes(iv, 'iv', 12) : iv;
  return aesGcmDecrypt(await importAesKey(rawKey), ivBytes, ciphertext);
}

/** The payload entry that hands an attachment's key to the message's readers (ZSealedPayload.attachments). */
export function attachmentPayloadEntry(
  file: EncryptedFile,
  meta: { name: string; type: string; size: number },
): { iv: string; key: string; name: string; type: string; size: number } {
  return { iv: file.ivText, key: file.keyText, name: meta.name, type: meta.type, size: meta.size };
}
