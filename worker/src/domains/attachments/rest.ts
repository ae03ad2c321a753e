import { Hono } from 'hono';
import { ATTACHMENT_MAX_BODY_BYTES, decodeBase64Any, ZAttachmentUploadFields, ZDecryptionKeyQuery } from '../../contracts/attachments';
import { AppError } from '../../lib/errors';
import { parseOrThrow } from '../../lib/validation';
import { requirePrincipal } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { readMultipart, textField } from './multipart';
import { attachmentNotFound, decryptAttachment, getAttachmentCiphertext, listAttachments } from './read-attachments';
import { getStorage } from './storage';
import { uploadAttachment } from './upload-attachment';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed id cannot be anyone's: 404 like one that is not yours. */
function pathId(raw: string, notFound: () => AppError): string {
  if (!UUID.test(raw)) throw notFound();
  return raw.toLowerCase();
}

/** `attachment; filename="…"` with an ASCII fallback and the exact UTF-8 name (RFC 6266 / 8187). */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Encrypted attachments and storage (SPEC section 7 /upload/encrypted-file and
 * /download/decrypted-file/{id}; docs/api.md "Encrypted attachments"). Mounted at /api.
 */
export const attachmentRoutes = new Hono<AppEnv>()
  .post('/upload/encrypted-file', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    const form = await readMultipart(c.req.raw, ATTACHMENT_MAX_BODY_BYTES);
    const files = form.getAll('file');
    const file = files[0];
    if (file === undefined) throw new AppError('UNPROCESSABLE', [{ loc: ['body', 'file'], msg: 'file is required (the encrypted bytes)', type: 'missing' }]);
    if (typeof file === 'string') throw new AppError('UNPROCESSABLE', [{ loc: ['body', 'file'], msg: 'file must be a file part (the encrypted bytes), not a text field', type: 'file_type' }]);
    if (files.length > 1) throw new AppError('UNPROCESSABLE', [{ loc: ['body', 'file'], msg: 'send one file per upload', type: 'too_many' }]);
    const fields = parseOrThrow(ZAttachmentUploadFields, { message_id: textField(form, 'message_id'), iv: textField(form, 'iv'), name: textField(form, 'name') }, 'body');
    const uploaded = await uploadAttachment(c.get('services'), user, fields, { bytes: new Uint8Array(await file.arrayBuffer()), fileName: file.name });
    return c.json(uploaded, 201);
  })
  .get('/message/:id/attachments', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    const id = pathId(c.req.param('id'), () => new AppError('NOT_FOUND', 'Message not found'));
    return c.json(await listAttachments(c.get('services'), user.id, id));
  })
  .get('/attachments/:id/ciphertext', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    const { object } = await getAttachmentCiphertext(c.get('services'), user.id, pathId(c.req.param('id'), attachmentNotFound));
    return new Response(object.body, {
      headers: {
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(object.size),
        'Content-Disposition': 'attachment',
        'Cache-Control': 'private, no-store',
      },
    });
  })
  .get('/download/decrypted-file/:id', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    // The key is checked before anything else and never echoed back, stored or logged.
    // A '+' of standard base64 sent unencoded in a query string arrives as a space: put it back.
    const parsed = ZDecryptionKeyQuery.safeParse({ key: c.req.query('key')?.replace(/ /g, '+') });
    if (!parsed.success) {
      const missing = !c.req.query('key');
      throw new AppError('BAD_REQUEST', missing ? 'key is required: the base64 AES-256 key shown when the file was encrypted (?key=…)' : 'key must be base64 or base64url of exactly 32 bytes (the AES-256 key shown when the file was encrypted)');
    }
    const id = pathId(c.req.param('id'), attachmentNotFound);
    const { name, plaintext } = await decryptAttachment(c.get('services'), user.id, id, decodeBase64Any(parsed.data.key)!);
    return new Response(plaintext, {
      headers: {
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(plaintext.byteLength),
        'Content-Disposition': contentDisposition(name),
        'Cache-Control': 'private, no-store',
      },
    });
  })
  .get('/profile/storage', async (c) => c.json(await getStorage(c.get('services'), requirePrincipal(c.get('principal')).user)));
