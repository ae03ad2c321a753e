import { schema } from '@afterword/db';
import type { MessageAttachment } from '@afterword/db/schema';
import { asc, eq } from 'drizzle-orm';
import { decodeBase64Any, type AttachmentView } from '../../contracts/attachments';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';

export const attachmentNotFound = () => new AppError('NOT_FOUND', 'Attachment not found');
export const KEY_DOES_NOT_OPEN = 'The key does not open this file';

interface Access {
  sender_id: string;
  recipient_user_id: string | null;
  released_at: Date | null;
}

/** The sender always; the recipient once the message is released (like the message itself). */
const mayRead = (m: Access, userId: string) => m.sender_id === userId || (m.recipient_user_id === userId && m.released_at != null);

const toView = (a: MessageAttachment): AttachmentView => ({ id: a.id, iv: a.iv, name: a.name, size: a.size, created_at: a.created_at.toISOString() });

/** GET /api/message/{id}/attachments: oldest first. 404 for a message the caller may not read. */
export async function listAttachments(ctx: ServiceContext, userId: string, messageId: string): Promise<AttachmentView[]> {
  const id = messageId.toLowerCase();
  const [m] = await ctx.db
    .select({ sender_id: schema.messages.sender_id, recipient_user_id: schema.messages.recipient_user_id, released_at: schema.messages.released_at })
    .from(schema.messages)
    .where(eq(schema.messages.id, id))
    .limit(1);
  if (!m || !mayRead(m, userId)) throw new AppError('NOT_FOUND', 'Message not found');
  const rows = await ctx.db
    .select()
    .from(schema.messageAttachments)
    .where(eq(schema.messageAttachments.message_id, id))
    .orderBy(asc(schema.messageAttachments.created_at), asc(schema.messageAttachments.id));
  return rows.map(toView);
}

/** One attachment the caller may read, or 404 (unknown, or not theirs to see). */
export async function loadReadableAttachment(ctx: ServiceContext, userId: string, attachmentId: string): Promise<MessageAttachment> {
  const [row] = await ctx.db
    .select({
      attachment: schema.messageAttachments,
      sender_id: schema.messages.sender_id,
      recipient_user_id: schema.messages.recipient_user_id,
      released_at: schema.messages.released_at,
    })
    .from(schema.messageAttachments)
    .innerJoin(schema.messages, eq(schema.messages.id, schema.messageAttachments.message_id))
    .where(eq(schema.messageAttachments.id, attachmentId.toLowerCase()))
    .limit(1);
  if (!row || !mayRead(row, userId)) throw attachmentNotFound();
  return row.attachment;
}

/** GET /api/attachments/{id}/ciphertext: the stored bytes, as uploaded. */
export async function getAttachmentCiphertext(
  ctx: ServiceContext,
  userId: string,
  attachmentId: string,
): Promise<{ attachment: MessageAttachment; object: R2ObjectBody }> {
  const attachment = await loadReadableAttachment(ctx, userId, attachmentId);
  const object = await ctx.env.BLOBS.get(attachment.r2_key);
  if (!object) throw attachmentNotFound();
  return { attachment, object };
}

/**
 * GET /api/download/decrypted-file/{id}?key= (docs/api.md): AES-GCM-256 with the stored IV and no
 * AAD, in the Worker. The key lives only in this call's memory: it is not stored, not logged, and not
 * part of any error (docs/server-rules.md "End-to-end encryption"). The web app decrypts in the browser instead.
 * The caller's right to the file is checked first: one that is not theirs is 404 whatever the key, as
 * a malformed id is. Then `readKey` (it throws the 400 of a missing or malformed key), then R2.
 */
export async function decryptAttachment(
  ctx: ServiceContext,
  userId: string,
  attachmentId: string,
  readKey: () => Uint8Array<ArrayBuffer>,
): Promise<{ name: string; plaintext: ArrayBuffer }> {
  const attachment = await loadReadableAttachment(ctx, userId, attachmentId);
  const rawKey = readKey();
  const object = await ctx.env.BLOBS.get(attachment.r2_key);
  if (!object) throw attachmentNotFound();
  const iv = decodeBase64Any(attachment.iv);
  if (!iv) throw new AppError('INTERNAL', 'The stored IV is unreadable');
  const ciphertext = await object.arrayBuffer();
  try {
    const key = await crypto.subtle.importKey('raw', rawKey, { name: 'AES-GCM' }, false, ['decrypt']);
    const plaintext = await crypto.subtle.decrypt({ name: 'AES-GCM', iv, tagLength: 128 }, key, ciphertext);
    return { name: attachment.name, plaintext };
  } catch {
    throw new AppError('BAD_REQUEST', KEY_DOES_NOT_OPEN);
  }
}
