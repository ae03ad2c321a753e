import type { User } from '@afterword/db/schema';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MIN_BYTES,
  ATTACHMENTS_PER_MESSAGE_MAX,
  cleanFileName,
  formatBytes,
  type AttachmentUploaded,
  type TAttachmentUploadFields,
} from '../../contracts/attachments';
import type { ServiceContext } from '../../env';
import { AppError, bodyFieldError } from '../../lib/errors';
import { quotaExceeded, storageLimitBytes, storageUsedBytes, storageUsedSql } from '../storage/storage-meter';

export const attachmentKey = (id: string) => `attachments/${id}`;

/** One encrypted file as the upload carries it: its bytes and the name the multipart part gave it. */
export interface UploadedFile {
  bytes: Uint8Array;
  fileName: string;
}

const messageNotFound = () => new AppError('NOT_FOUND', 'Message not found');

/** The checks of the file's size that need no database: before anything is read or stored. */
export function checkFileSize(size: number) {
  if (size < ATTACHMENT_MIN_BYTES)
    throw bodyFieldError('file', `file must be at least ${ATTACHMENT_MIN_BYTES} bytes (AES-GCM ciphertext ends with a 16-byte tag)`, 'too_small');
  if (size > ATTACHMENT_MAX_BYTES)
    throw new AppError('PAYLOAD_TOO_LARGE', `file must be at most ${formatBytes(ATTACHMENT_MAX_BYTES)} (${ATTACHMENT_MAX_BYTES} bytes)`);
}

interface MessageState {
  status: string;
  released_at: number | null;
  attachments: number;
}

async function messageState(ctx: ServiceContext, userId: string, messageId: string): Promise<MessageState | null> {
  return ctx.env.DB.prepare(
    `SELECT status, released_at, (SELECT count(*) FROM message_attachments WHERE message_id = ?1) AS attachments FROM messages WHERE id = ?1 AND sender_id = ?2`,
  )
    .bind(messageId, userId)
    .first<MessageState>();
}

/** Why an upload to this message cannot go ahead, or null when it can. */
function refusal(state: MessageState | null): AppError | null {
  if (!state) return messageNotFound();
  if (state.released_at != null || (state.status !== 'scheduled' && state.status !== 'armed')) {
    return new AppError(
      'CONFLICT',
      state.status === 'cancelled'
        ? 'This message was cancelled; files can no longer be attached'
        : 'This message was already released; files can no longer be attached',
    );
  }
  if (state.attachments >= ATTACHMENTS_PER_MESSAGE_MAX) return new AppError('CONFLICT', `A message can carry at most ${ATTACHMENTS_PER_MESSAGE_MAX} files`);
  return null;
}

/**
 * POST /api/upload/encrypted-file: stores a browser-encrypted file for one of the caller's unreleased
 * messages. The ciphertext goes to R2 first; the D1 row is inserted only if the message is still the
 * caller's, still unreleased, and the file still fits the plan — one conditional statement, so a
 * release or another upload at the same moment cannot slip past the checks. When the row is not
 * written, the R2 object is deleted again: a refused or failed upload leaves nothing behind.
 */
export async function uploadAttachment(
  ctx: ServiceContext,
  user: Pick<User, 'id' | 'plan'>,
  fields: TAttachmentUploadFields,
  file: UploadedFile,
): Promise<AttachmentUploaded> {
  const size = file.bytes.byteLength;
  checkFileSize(size);
  const early = refusal(await messageState(ctx, user.id, fields.message_id));
  if (early) throw early;
  const limit = storageLimitBytes(user.plan);
  const used = await storageUsedBytes(ctx, user.id);
  if (used + size > limit) throw quotaExceeded(user.plan, used, size);

  const id = crypto.randomUUID();
  const key = attachmentKey(id);
  const name = fields.name ?? (file.fileName && file.fileName !== 'blob' ? cleanFileName(file.fileName) : 'attachment');
  const now = ctx.now().getTime();
  await ctx.env.BLOBS.put(key, file.bytes, {
    httpMetadata: { contentType: 'application/octet-stream' },
    customMetadata: { owner: user.id, message: fields.message_id },
  });
  let written: number;
  try {
    const result = await ctx.env.DB.prepare(
      `INSERT INTO message_attachments (id, message_id, owner_id, r2_key, iv, name, size, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
       WHERE EXISTS (SELECT 1 FROM messages WHERE id = ?2 AND sender_id = ?3 AND released_at IS NULL AND status IN ('scheduled', 'armed'))
         AND (SELECT count(*) FROM message_attachments WHERE message_id = ?2) < ?9
         AND ${storageUsedSql('?3')} + ?7 <= ?10`,
    )
      .bind(id, fields.message_id, user.id, key, fields.iv, name, size, now, ATTACHMENTS_PER_MESSAGE_MAX, limit)
      .run();
    written = result.meta.changes;
  } catch (err) {
    await ctx.env.BLOBS.delete(key);
    throw err;
  }
  if (written !== 1) {
    await ctx.env.BLOBS.delete(key);
    // Something changed between the checks and the insert: say what.
    throw refusal(await messageState(ctx, user.id, fields.message_id)) ?? quotaExceeded(user.plan, await storageUsedBytes(ctx, user.id), size);
  }
  return { id, message_id: fields.message_id, iv: fields.iv, name, size };
}
