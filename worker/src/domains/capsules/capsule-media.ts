import type { User } from '@afterword/db/schema';
import parseRange from 'range-parser';
import {
  CAPSULE_ITEMS_MAX,
  CAPSULE_MEDIA_MAX_BYTES,
  capsuleMediaPath,
  type TCapsuleMediaFields,
  type TMyCapsule,
  ZCapsuleMediaFields,
} from '../../contracts/capsules';
import { singleFilePart, textField } from '../../lib/multipart';
import { parseOrThrow } from '../../lib/validation';
import { formatBytes } from '../../contracts/attachments';
import type { ServiceContext } from '../../env';
import type { Principal } from '../../middleware/context';
import { AppError } from '../../lib/errors';
import { assertStorageFits, quotaExceeded, storageLimitBytes, storageUsedBytes, storageUsedSql } from '../storage/storage-meter';
import { consentWithdrawn, requireConsent } from '../legal/consent-state';
import { capsuleNotFound, isPublicSql, ownCapsule } from './capsule-records';
import { sniffMedia } from './media-type';
import { readOwnCapsule } from './write-capsule';

/*
 * Audio and video items of a capsule (docs/decisions/community.md "Audio and video
 * items"): one file per call, added and removed by the author before the release, served to whoever may
 * read the capsule.
 */

/** R2 key of an item's file: by capsule and item, never by author (an anonymous capsule stays so in storage too). */
export const capsuleMediaKey = (capsuleId: string, itemId: string) => `capsules/${capsuleId}/${itemId}`;

const released = () => new AppError('CONFLICT', 'This capsule is already released: it can no longer be edited, only deleted');

/**
 * POST /api/capsule/{id}/media: the author adds one audio or video file (with WebVTT captions if given)
 * after the capsule's items. 404 for another person's capsule; 409 once released; 403 without the
 * confessions consent (and the video consent for a video) or past the plan's storage; 413 over 50 MiB;
 * 415 when the bytes are not the type named; 422 past 20 items. The bytes go to R2 first and the row is
 * inserted only while the capsule is unreleased and the file fits the plan (one conditional statement);
 * otherwise the object is deleted again, so a refused upload leaves nothing behind.
 */
export async function addCapsuleMedia(
  ctx: ServiceContext,
  author: Pick<User, 'id' | 'plan' | 'email'>,
  capsuleId: string,
  form: FormData,
): Promise<TMyCapsule> {
  const now = ctx.now().getTime();
  const capsule = await ownCapsule(ctx, author.id, capsuleId);
  const file = await singleFilePart(form, 'send one audio or video file per call');
  const fields: TCapsuleMediaFields = parseOrThrow(ZCapsuleMediaFields, { type: textField(form, 'type'), captions: textField(form, 'captions') }, 'body');
  if (capsule.release_at.getTime() <= now) throw released();
  await requireConsent(ctx, author.id, 'confessions', consentWithdrawn('confessions', 'no capsules can be made'));
  if (fields.type === 'video') await requireConsent(ctx, author.id, 'video', consentWithdrawn('video', 'no video can be added'));
  const size = file.bytes.byteLength;
  if (size > CAPSULE_MEDIA_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', `An audio or video file can be up to ${formatBytes(CAPSULE_MEDIA_MAX_BYTES)}`);
  const sniffed = sniffMedia(file.bytes, fields.type);
  if (!sniffed.ok)
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      fields.type === 'audio' ? 'Audio items can be WebM, Ogg (Opus or Vorbis) or WAV audio' : 'Video items can be WebM or MP4 video',
    );
  await assertStorageFits(ctx, author, size);
  const limit = storageLimitBytes(author.plan);

  const itemId = crypto.randomUUID();
  const key = capsuleMediaKey(capsuleId, itemId);
  await ctx.env.BLOBS.put(key, file.bytes, { httpMetadata: { contentType: sniffed.contentType } });
  let written: number;
  try {
    const result = await ctx.env.DB.prepare(
      `INSERT INTO capsule_items (id, capsule_id, position, type, data, r2_key, content_type, size, duration_ms, captions)
       SELECT ?1, ?2, (SELECT COALESCE(MAX(position), -1) + 1 FROM capsule_items WHERE capsule_id = ?2), ?3, ?4, ?5, ?6, ?7, ?8, ?9
       WHERE EXISTS (SELECT 1 FROM capsules WHERE id = ?2 AND author_id = ?10 AND release_at > ?11)
         AND (SELECT COUNT(*) FROM capsule_items WHERE capsule_id = ?2) < ?12
         AND ${storageUsedSql('?10')} + ?7 <= ?13`,
    )
      .bind(
        itemId,
        capsuleId,
        sniffed.type,
        capsuleMediaPath(itemId),
        key,
        sniffed.contentType,
        size,
        sniffed.durationMs,
        fields.captions,
        author.id,
        now,
        CAPSULE_ITEMS_MAX,
        limit,
      )
      .run();
    written = result.meta.changes;
  } catch (err) {
    await ctx.env.BLOBS.delete(key);
    throw err;
  }
  if (written !== 1) {
    await ctx.env.BLOBS.delete(key);
    const count = await ctx.env.DB.prepare('SELECT COUNT(*) AS n FROM capsule_items WHERE capsule_id = ?1').bind(capsuleId).first<{ n: number }>();
    if ((count?.n ?? 0) >= CAPSULE_ITEMS_MAX)
      throw new AppError('UNPROCESSABLE', [{ loc: ['body', 'file'], msg: `A capsule holds at most ${CAPSULE_ITEMS_MAX} items`, type: 'too_many' }]);
    const again = await ownCapsule(ctx, author.id, capsuleId);
    if (again.release_at.getTime() <= now) throw released();
    throw quotaExceeded(author.plan, await storageUsedBytes(ctx, author.id), size);
  }
  return readOwnCapsule(ctx, author, capsuleId, now);
}

/** DELETE /api/capsule/{id}/media/{item_id}: the author removes an audio or video item before the release, and its file. */
export async function deleteCapsuleMedia(ctx: ServiceContext, author: Pick<User, 'id' | 'email'>, capsuleId: string, itemId: string): Promise<TMyCapsule> {
  const now = ctx.now().getTime();
  const capsule = await ownCapsule(ctx, author.id, capsuleId);
  if (capsule.release_at.getTime() <= now) throw released();
  const row = await ctx.env.DB.prepare(
    `DELETE FROM capsule_items WHERE id = ?1 AND capsule_id = ?2 AND r2_key IS NOT NULL
       AND EXISTS (SELECT 1 FROM capsules WHERE id = ?2 AND author_id = ?3 AND release_at > ?4)
     RETURNING r2_key`,
  )
    .bind(itemId, capsuleId, author.id, now)
    .first<{ r2_key: string }>();
  if (!row) throw new AppError('NOT_FOUND', 'Capsule item not found');
  await ctx.env.BLOBS.delete(row.r2_key);
  return readOwnCapsule(ctx, author, capsuleId, now);
}

interface MediaRow {
  r2_key: string;
  content_type: string;
  captions: string | null;
}

/** An item's file and captions, if whoever asks may read its capsule: anyone once public, its author always. */
async function readableItem(ctx: ServiceContext, principal: Principal | null, itemId: string): Promise<MediaRow> {
  const now = ctx.now().getTime();
  const row = await ctx.env.DB.prepare(
    `SELECT i.r2_key, i.content_type, i.captions FROM capsule_items i JOIN capsules c ON c.id = i.capsule_id
     WHERE i.id = ?1 AND i.r2_key IS NOT NULL AND (${isPublicSql('c', '?2')} OR c.author_id = ?3)`,
  )
    .bind(itemId, now, principal?.user.id ?? '')
    .first<MediaRow>();
  if (!row) throw capsuleNotFound();
  return row;
}

/**
 * GET /api/capsule/media/{item_id}: the file, with the type read from its bytes; cached privately (an
 * author's preview is not public). A `Range: bytes=…` of one range answers 206 with that part (players
 * seek in audio and video this way); a range past the end answers 416; several ranges, or a header that
 * does not parse, get the whole file (RFC 9110 lets a server ignore Range).
 */
export async function capsuleMediaResponse(ctx: ServiceContext, principal: Principal | null, itemId: string, range: string | null = null): Promise<Response> {
  const row = await readableItem(ctx, principal, itemId);
  const headers = { 'Content-Type': row.content_type, 'Accept-Ranges': 'bytes', 'Cache-Control': 'private, max-age=300', 'X-Content-Type-Options': 'nosniff' };
  const asked = range ? await askedPart(ctx, row.r2_key, range) : null;
  if (asked?.part === 'unsatisfiable') return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${asked.size}` } });
  const part = asked?.part ?? null;
  const object = await ctx.env.BLOBS.get(row.r2_key, part ? { range: { offset: part.start, length: part.end - part.start + 1 } } : {});
  if (!object) throw capsuleNotFound();
  if (!part) return new Response(object.body, { headers: { ...headers, 'Content-Length': String(object.size) } });
  return new Response(object.body, {
    status: 206,
    headers: { ...headers, 'Content-Length': String(part.end - part.start + 1), 'Content-Range': `bytes ${part.start}-${part.end}/${object.size}` },
  });
}

/** The file's size and the one byte range a Range header asks of it: 'unsatisfiable', or null (the whole file). */
async function askedPart(ctx: ServiceContext, key: string, header: string) {
  const head = await ctx.env.BLOBS.head(key);
  if (!head) throw capsuleNotFound();
  const parsed = parseRange(head.size, header, { combine: true });
  const part: { start: number; end: number } | 'unsatisfiable' | null =
    parsed === -1 ? 'unsatisfiable' : parsed === -2 || parsed.type !== 'bytes' || parsed.length !== 1 ? null : { start: parsed[0]!.start, end: parsed[0]!.end };
  return { size: head.size, part };
}

/** GET /api/capsule/media/{item_id}/captions: the item's WebVTT captions (404 when it has none). */
export async function capsuleCaptionsResponse(ctx: ServiceContext, principal: Principal | null, itemId: string): Promise<Response> {
  const row = await readableItem(ctx, principal, itemId);
  if (!row.captions) throw capsuleNotFound();
  return new Response(row.captions, {
    headers: { 'Content-Type': 'text/vtt; charset=utf-8', 'Cache-Control': 'private, max-age=300', 'X-Content-Type-Options': 'nosniff' },
  });
}

/** The files of a capsule's items, for deleting them with it. */
export async function mediaKeysOf(ctx: ServiceContext, capsuleId: string): Promise<string[]> {
  const { results } = await ctx.env.DB.prepare('SELECT r2_key FROM capsule_items WHERE capsule_id = ?1 AND r2_key IS NOT NULL')
    .bind(capsuleId)
    .all<{ r2_key: string }>();
  return results.map((r) => r.r2_key);
}
