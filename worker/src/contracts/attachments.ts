import { z } from 'zod';
import { fromBase64 } from '../lib/encoding';
import { PLANS } from './auth';

/**
 * Encrypted attachments (docs/product.md "End-to-end encryption",
 * docs/server-rules.md "End-to-end encryption"): AES-GCM-256 with a 12-byte IV, encrypted in the browser. The
 * server stores ciphertext only; the decrypted-file download takes the key in its query once and never stores
 * or logs it.
 */

/** AES-GCM's tag alone: anything shorter cannot be a ciphertext. */
export const ATTACHMENT_MIN_BYTES = 16;
/**
 * Per file. The upload is parsed in memory and the decrypted download holds ciphertext and plaintext
 * at once, inside a Worker's 128 MB: 25 MiB keeps both well clear of it.
 */
export const ATTACHMENT_MAX_BYTES = 25 * 1024 * 1024;
/** The multipart body: the file plus its few text fields. */
export const ATTACHMENT_MAX_BODY_BYTES = ATTACHMENT_MAX_BYTES + 64 * 1024;
/** As many files as a sealed payload can carry keys for (ZSealedPayload.attachments). */
export const ATTACHMENTS_PER_MESSAGE_MAX = 20;
export const ATTACHMENT_NAME_MAX = 255;
export const AES_GCM_IV_BYTES = 12;
export const AES_256_KEY_BYTES = 32;

/** Bytes of standard or url-safe base64 (padding optional), or null when it is not base64. */
export function decodeBase64Any(value: string): Uint8Array<ArrayBuffer> | null {
  const s = value.trim();
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(s) || s.length % 4 === 1) return null;
  // One alphabet per value: a mix of '+' and '_' is not base64 of anything anyone sent.
  if (/[+/]/.test(s) && /[-_]/.test(s)) return null;
  const std = s.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  return fromBase64(std + '='.repeat((4 - (std.length % 4)) % 4));
}

const base64OfBytes = (what: string, bytes: number) => {
  const chars = Math.ceil((bytes * 4) / 3);
  const padding = (4 - (chars % 4)) % 4;
  return z
    .string({ message: `${what} is required` })
    .trim()
    .refine((v) => decodeBase64Any(v)?.byteLength === bytes, { message: `${what} must be base64 (standard or url-safe) of exactly ${bytes} bytes` })
    .meta({
      description: `base64, standard or url-safe, padding optional: exactly ${bytes} bytes`,
      contentEncoding: 'base64',
      pattern: `^\\s*[A-Za-z0-9+/_-]{${chars}}={0,${padding}}\\s*$`,
    });
};

/** Turns a client file name into one safe to store and to put in a Content-Disposition header. */
export function cleanFileName(name: string): string {
  const cleaned = name
    .normalize('NFC')
    // No control characters, no path: the name is a label, never a location.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the class matches the control characters (U+0000–U+001F, U+007F) to strip them from a header value
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/^.*[\\/]/, '')
    .trim()
    .slice(0, ATTACHMENT_NAME_MAX);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'attachment' : cleaned;
}

/**
 * POST /api/upload/encrypted-file: the text fields of the multipart body (`file` is checked apart:
 * it is bytes, not text).
 */
export const ZAttachmentUploadFields = z.object({
  message_id: z
    .string({ message: 'message_id is required' })
    .trim()
    .uuid({ message: 'message_id must be a message id (a UUID)' })
    .transform((v) => v.toLowerCase()),
  iv: base64OfBytes('iv', AES_GCM_IV_BYTES),
  name: z
    .string()
    .max(ATTACHMENT_NAME_MAX, { message: `name must be at most ${ATTACHMENT_NAME_MAX} characters` })
    .optional()
    .transform((v) => (v?.trim() ? cleanFileName(v) : undefined)),
});
export type TAttachmentUploadFields = z.output<typeof ZAttachmentUploadFields>;

/** GET /api/download/decrypted-file/{id}?key=: the AES-256 key, base64 or base64url of 32 bytes. */
export const ZDecryptionKeyQuery = z.object({ key: base64OfBytes('key', AES_256_KEY_BYTES) });

/** attachments.list: the attachments of one message. */
export const ZMessageAttachmentsInput = z.object({ message_id: z.string().trim().uuid({ message: 'message_id must be a message id (a UUID)' }) });

/** The 201 answer of an upload. */
export const ZAttachmentUploaded = z.object({ id: z.string(), message_id: z.string(), iv: z.string(), name: z.string(), size: z.number().int() });
export type AttachmentUploaded = z.infer<typeof ZAttachmentUploaded>;

/** One entry of GET /api/message/{id}/attachments. */
export const ZAttachmentView = z.object({ id: z.string(), iv: z.string(), name: z.string(), size: z.number().int(), created_at: z.string() });
export type AttachmentView = z.infer<typeof ZAttachmentView>;

/** GET /api/profile/storage: audio of the caller's messages + their attachments, against the plan. */
export const ZStorageView = z.object({ used_bytes: z.number().int(), limit_bytes: z.number().int(), plan: z.enum(PLANS) });
export type StorageView = z.infer<typeof ZStorageView>;

/** 1234567 → "1.2 MB" (decimal units, as plans are sold); used by the server's quota texts and the web app. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  if (unit === 0) return `${value} ${value === 1 ? 'byte' : 'bytes'}`;
  return `${value >= 100 ? Math.round(value) : Number(value.toFixed(1))} ${units[unit]}`;
}
