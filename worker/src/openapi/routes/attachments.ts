import { z } from 'zod';
import { ZAttachmentUploadFields, ZDecryptionKeyQuery } from '../../contracts/attachments';
import { ZMessageId } from '../../contracts/messages';
import type { RouteDoc } from '../route-doc';
import { ZAttachmentUploaded, ZAttachmentView } from '../schemas';

const tags = ['Attachments'];
const ZAttachmentId = z.object({ id: z.uuid() });

/** Encrypted attachments (domains/attachments/rest.ts, mounted at /api). */
export const routes: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/upload/encrypted-file',
    operationId: 'uploadEncryptedFile',
    summary: 'Attach an encrypted file to a message',
    description:
      'The file is AES-GCM-256 ciphertext made in the client (12-byte IV, no AAD): the server stores it as is. 16 bytes to 25 MiB, at most 20 files per message, within the plan\'s storage (413 past it). Only the sender, before release.',
    tags,
    auth: 'session',
    request: {
      contentType: 'multipart/form-data',
      body: ZAttachmentUploadFields.extend({ file: z.file().describe('The ciphertext (one file part)') }),
    },
    responses: {
      201: { description: 'Stored', schema: ZAttachmentUploaded },
      404: { description: 'Message not found (or not yours)' },
      409: { description: 'The message was released or cancelled, or already has 20 files' },
      413: { description: 'Over 25 MiB, or over the plan\'s storage' },
    },
  },
  {
    method: 'get',
    path: '/api/message/{id}/attachments',
    operationId: 'listAttachments',
    summary: "A message's attachments",
    description: 'Oldest first: the sender, or the recipient once released.',
    tags,
    auth: 'session-or-key',
    scope: 'read:messages',
    request: { params: ZMessageId },
    responses: {
      200: { description: 'Attachments', schema: z.array(ZAttachmentView) },
      404: { description: 'Message not found (or not yours, or not yet released to you)' },
    },
  },
  {
    method: 'get',
    path: '/api/attachments/{id}/ciphertext',
    operationId: 'getAttachmentCiphertext',
    summary: 'The stored ciphertext',
    description: 'For a client that decrypts by itself (the web app does).',
    tags,
    auth: 'session',
    request: { params: ZAttachmentId },
    responses: { 200: { description: 'The bytes as stored', contentType: 'application/octet-stream' }, 404: { description: 'Attachment not found' } },
  },
  {
    method: 'get',
    path: '/api/download/decrypted-file/{id}',
    operationId: 'downloadDecryptedFile',
    summary: 'Download a file decrypted by the server',
    description:
      'The key (shown when the file was encrypted) is used once to decrypt in the Worker and is never stored or logged. Prefer decrypting in the client (the ciphertext route) where you can.',
    tags,
    auth: 'session',
    request: { params: ZAttachmentId, query: ZDecryptionKeyQuery },
    responses: {
      200: { description: 'The plaintext, with `Content-Disposition: attachment; filename=…`', contentType: 'application/octet-stream' },
      400: { description: 'key missing or not 32 bytes of base64, or the key does not open this file' },
      404: { description: 'Attachment not found' },
    },
  },
];
