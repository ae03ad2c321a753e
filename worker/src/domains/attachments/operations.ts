import { z } from 'zod';
import { ZId, ZIdParam } from '../../contracts/ids';
import { defineOperation } from '../../api/operation';
import {
  ATTACHMENT_MAX_BODY_BYTES,
  decodeBase64Any,
  ZAttachmentUploaded,
  ZAttachmentUploadFields,
  ZAttachmentView,
  ZDecryptionKeyQuery,
  ZStorageView,
} from '../../contracts/attachments';
import { AppError } from '../../lib/errors';
import { parseOrThrow } from '../../lib/validation';
import { messageNotFound } from '../messages/read-messages';
import { singleFilePart, textField } from '../../lib/multipart';
import { attachmentNotFound, decryptAttachment, getAttachmentCiphertext, listAttachments } from './read-attachments';
import { getStorage } from '../storage/storage-meter';
import { uploadAttachment } from './upload-attachment';

/**
 * Encrypted attachments and storage (/upload/encrypted-file and
 * /download/decrypted-file/{id}; docs/api.md "Encrypted attachments and storage"). Uploads are multipart and
 * downloads binary: REST only; tRPC has the JSON parts (`attachments.list`, `attachments.storage`).
 */
const tags = ['Attachments'];
const notYours = { description: 'Message not found (or not yours, or not yet released to you)' };
const attachmentMissing = { description: 'Attachment not found' };

/** The multipart body: one file part (the ciphertext) and the text fields. */
async function readUpload(form: FormData) {
  const file = await singleFilePart(form, 'send one file per upload');
  const fields = parseOrThrow(
    ZAttachmentUploadFields,
    { message_id: textField(form, 'message_id'), iv: textField(form, 'iv'), name: textField(form, 'name') },
    'body',
  );
  return { fields, file };
}

/**
 * `?key=`, documented as ZDecryptionKeyQuery (a required string) but read in the service, after the
 * caller's right to the file: a missing or malformed key is a 400 with its own sentence (never a 422),
 * and the key is never echoed back, stored or logged. A '+' of standard base64 sent unencoded in a
 * query string arrives as a space: put it back.
 */
const ZDecryptionKeyParam = z.object({ key: z.preprocess((raw) => (typeof raw === 'string' ? raw.replace(/ /g, '+') : ''), z.string()) });

/**
 * The key may come in a header instead of the query string: a URL is written down by more than our own
 * logs (a platform's request logs, a browser's history, a proxy's), a header is not. Our logs drop every
 * query value (lib/logger.ts `redactUrl`) either way.
 */
export const DECRYPTION_KEY_HEADER = 'X-Decryption-Key';

function decryptionKey(key: string): Uint8Array<ArrayBuffer> {
  const parsed = ZDecryptionKeyQuery.shape.key.safeParse(key);
  if (!parsed.success) {
    throw new AppError(
      'BAD_REQUEST',
      key === ''
        ? `key is required: the base64 AES-256 key shown when the file was encrypted, in the ${DECRYPTION_KEY_HEADER} header (or ?key=…)`
        : 'key must be base64 or base64url of exactly 32 bytes (the AES-256 key shown when the file was encrypted)',
    );
  }
  return decodeBase64Any(parsed.data)!;
}

/** `attachment; filename="…"` with an ASCII fallback and the exact UTF-8 name (RFC 6266 / 8187). */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export const attachmentsOperations = [
  defineOperation({
    method: 'post',
    path: '/api/upload/encrypted-file',
    trpc: false,
    access: { kind: 'session' },
    input: {
      multipart: {
        schema: ZAttachmentUploadFields.extend({ file: z.file().describe('The ciphertext (one file part)') }),
        maxBytes: ATTACHMENT_MAX_BODY_BYTES,
        read: readUpload,
      },
    },
    output: ZAttachmentUploaded,
    status: 201,
    docs: {
      operationId: 'uploadEncryptedFile',
      summary: 'Attach an encrypted file to a message',
      description:
        "The file is AES-GCM-256 ciphertext made in the client (12-byte IV, no AAD): the server stores it as is. 16 bytes to 25 MiB, at most 20 files per message, within the plan's storage (403 past it). Only the sender, before release.",
      tags,
      responses: {
        201: { description: 'Stored' },
        404: { description: 'Message not found (or not yours)' },
        403: { description: "Over the plan's storage (the detail names the plan that holds more)" },
        409: { description: 'The message was released or cancelled, or already has 20 files' },
        413: { description: 'Over 25 MiB' },
      },
    },
    run: ({ services, principal }, { fields, file }) => uploadAttachment(services, principal.user, fields, file),
  }),
  defineOperation({
    method: 'get',
    path: '/api/message/{id}/attachments',
    trpc: false,
    access: { kind: 'session-or-key', scope: 'read:messages' },
    input: { params: ZIdParam },
    output: z.array(ZAttachmentView),
    notFound: messageNotFound,
    docs: {
      operationId: 'listAttachments',
      summary: "A message's attachments",
      description: 'Oldest first: the sender, or the recipient once released.',
      tags,
      responses: { 200: { description: 'Attachments' }, 404: notYours },
    },
    run: ({ services, principal }, { id }) => listAttachments(services, principal.user.id, id),
  }),
  defineOperation({
    method: 'get',
    path: null,
    trpc: 'list',
    access: { kind: 'session' },
    input: { params: z.object({ message_id: ZId }) },
    output: z.array(ZAttachmentView),
    notFound: messageNotFound,
    docs: { operationId: 'listAttachments', summary: "A message's attachments", tags },
    run: ({ services, principal }, { message_id }) => listAttachments(services, principal.user.id, message_id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/attachments/{id}/ciphertext',
    trpc: false,
    access: { kind: 'session' },
    input: { params: ZIdParam },
    notFound: attachmentNotFound,
    docs: {
      operationId: 'getAttachmentCiphertext',
      summary: 'The stored ciphertext',
      description: 'For a client that decrypts by itself (the web app does).',
      tags,
      contentType: 'application/octet-stream',
      responses: { 200: { description: 'The bytes as stored' }, 404: attachmentMissing },
    },
    run: async ({ services, principal }, { id }) => {
      const { object } = await getAttachmentCiphertext(services, principal.user.id, id);
      return new Response(object.body, {
        headers: {
          'Content-Type': 'application/octet-stream',
          'Content-Length': String(object.size),
          'Content-Disposition': 'attachment',
          'Cache-Control': 'private, no-store',
        },
      });
    },
  }),
  defineOperation({
    method: 'get',
    path: '/api/download/decrypted-file/{id}',
    trpc: false,
    access: { kind: 'session' },
    input: { params: ZIdParam, query: ZDecryptionKeyParam },
    notFound: attachmentNotFound,
    docs: {
      operationId: 'downloadDecryptedFile',
      summary: 'Download a file decrypted by the server',
      description: `The key (shown when the file was encrypted) is used once to decrypt in the Worker and is never stored or logged by Afterword. Send it in the ${DECRYPTION_KEY_HEADER} header rather than as ?key=: a URL may be kept by logs outside Afterword (a hosting platform's request logs, a proxy, browser history). The header wins when both are sent. Prefer decrypting in the client (the ciphertext route) where you can.`,
      tags,
      contentType: 'application/octet-stream',
      requestHeaders: [{ name: DECRYPTION_KEY_HEADER, description: 'The base64 or base64url AES-256 key (32 bytes); replaces ?key=' }],
      responses: {
        200: { description: 'The plaintext, with `Content-Disposition: attachment; filename=…`' },
        400: { description: 'key missing or not 32 bytes of base64, or the key does not open this file' },
        404: attachmentMissing,
      },
    },
    run: async ({ services, principal, header }, { id, key }) => {
      const fromHeader = header(DECRYPTION_KEY_HEADER)?.trim();
      const { name, plaintext } = await decryptAttachment(services, principal.user.id, id, () => decryptionKey(fromHeader || key));
      return new Response(plaintext, {
        headers: {
          'Content-Type': 'application/octet-stream',
          'Content-Length': String(plaintext.byteLength),
          'Content-Disposition': contentDisposition(name),
          'Cache-Control': 'private, no-store',
        },
      });
    },
  }),
] as const;

/**
 * GET /api/profile/storage (tRPC `attachments.storage`): the attachments domain's answer, documented
 * in the Profile area after the profile's own operations (openapi/routes/index.ts).
 */
export const storageOperations = [
  defineOperation({
    method: 'get',
    path: '/api/profile/storage',
    trpc: 'storage',
    access: { kind: 'session' },
    input: {},
    output: ZStorageView,
    docs: {
      operationId: 'storageUsage',
      summary: 'Storage used against the plan',
      description: "Audio of the caller's messages plus their encrypted attachments.",
      tags: ['Profile'],
      responses: { 200: { description: 'Usage' } },
    },
    run: ({ services, principal }) => getStorage(services, principal.user),
  }),
] as const;
