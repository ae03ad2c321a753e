import type { User } from '@afterword/db/schema';
import { type TVoicePromptFields, VOICE_ERRORS, VOICE_SAMPLE_MAX_BYTES, type VoicePromptView } from '../../contracts/voice';
import { formatBytes } from '../../contracts/attachments';
import type { ServiceContext } from '../../env';
import { AppError, bodyFieldError } from '../../lib/errors';
import { assertStorageFits, quotaExceeded, storageLimitBytes, storageUsedBytes, storageUsedSql } from '../storage/storage-meter';
import { consentWithdrawn, consentWithdrawnSql, requireConsent } from '../legal/consent-state';
import { measureAudio } from './audio-duration';
import { VOICE_KEY_PREFIX } from './samples';

export const voicePromptKey = (ownerId: string, id: string) => `${VOICE_KEY_PREFIX}${ownerId}/prompts/${id}`;
export const voicePromptNotFound = () => new AppError('NOT_FOUND', 'Message from the Beyond not found');

interface PromptRow {
  id: string;
  prompt: string;
  response_text: string | null;
  r2_key: string | null;
  content_type: VoicePromptView['content_type'];
  size: number;
  duration_ms: number | null;
  locked: number;
  created_at: number;
}

const toView = (r: PromptRow): VoicePromptView => ({
  id: r.id,
  prompt: r.prompt,
  response_text: r.response_text,
  has_audio: r.r2_key != null,
  content_type: r.content_type,
  duration_ms: r.duration_ms,
  size: r.size,
  locked: Boolean(r.locked),
  created_at: new Date(r.created_at).toISOString(),
});

/** The owner's Messages from the Beyond, oldest first. */
export async function listVoicePrompts(ctx: ServiceContext, ownerId: string): Promise<VoicePromptView[]> {
  const { results } = await ctx.env.DB.prepare('SELECT * FROM voice_prompts WHERE owner_id = ?1 ORDER BY created_at, id').bind(ownerId).all<PromptRow>();
  return results.map(toView);
}

/**
 * POST /api/voice/prompt: a question and the owner's own answer, written, recorded or both (one of them
 * at least). A recording is checked and measured like a voice sample (415 / 422 / 413) and counts in the
 * storage (403 past it). The voice consent covers it: it is persona material.
 */
export async function createVoicePrompt(
  ctx: ServiceContext,
  owner: Pick<User, 'id' | 'plan'>,
  fields: TVoicePromptFields,
  file: { bytes: Uint8Array } | null,
): Promise<VoicePromptView> {
  await requireConsent(ctx, owner.id, 'voice', consentWithdrawn('voice', 'no Message from the Beyond is stored'));
  if (!file && !fields.response_text) throw bodyFieldError('response_text', 'Write an answer (response_text) or record one (file)', 'missing');
  let audio: { type: NonNullable<VoicePromptView['content_type']>; durationMs: number } | null = null;
  if (file) {
    if (file.bytes.byteLength > VOICE_SAMPLE_MAX_BYTES)
      throw new AppError('PAYLOAD_TOO_LARGE', `A recording must be at most ${formatBytes(VOICE_SAMPLE_MAX_BYTES)}`);
    const measured = measureAudio(file.bytes);
    if (!measured.ok) {
      if (measured.reason === 'not WAV, Ogg or WebM audio') throw new AppError('UNSUPPORTED_MEDIA_TYPE', VOICE_ERRORS.unsupported);
      throw bodyFieldError('file', `The recording could not be measured: ${measured.reason}`, 'audio_unreadable');
    }
    audio = { type: measured.type, durationMs: measured.durationMs };
  }
  const size = file?.bytes.byteLength ?? 0;
  await assertStorageFits(ctx, owner, size);
  const limit = storageLimitBytes(owner.plan);

  const id = crypto.randomUUID();
  const key = file ? voicePromptKey(owner.id, id) : null;
  const now = ctx.now().getTime();
  if (key && file && audio) {
    await ctx.env.BLOBS.put(key, file.bytes, { httpMetadata: { contentType: audio.type }, customMetadata: { owner: owner.id, prompt: id } });
  }
  let written: number;
  try {
    const result = await ctx.env.DB.prepare(
      `INSERT INTO voice_prompts (id, owner_id, prompt, response_text, r2_key, content_type, size, duration_ms, locked, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10
       WHERE ${storageUsedSql('?2')} + ?7 <= ?11
         AND NOT ${consentWithdrawnSql('?2', 'voice')}`,
    )
      .bind(id, owner.id, fields.prompt, fields.response_text, key, audio?.type ?? null, size, audio?.durationMs ?? null, fields.locked ? 1 : 0, now, limit)
      .run();
    written = result.meta.changes;
  } catch (err) {
    if (key) await ctx.env.BLOBS.delete(key);
    throw err;
  }
  if (written !== 1) {
    if (key) await ctx.env.BLOBS.delete(key);
    await requireConsent(ctx, owner.id, 'voice', consentWithdrawn('voice', 'no Message from the Beyond is stored'));
    throw quotaExceeded(owner.plan, await storageUsedBytes(ctx, owner.id), size);
  }
  return toView({
    id,
    prompt: fields.prompt,
    response_text: fields.response_text,
    r2_key: key,
    content_type: audio?.type ?? null,
    size,
    duration_ms: audio?.durationMs ?? null,
    locked: fields.locked ? 1 : 0,
    created_at: now,
  });
}

/** DELETE /api/voice/prompts/{id}: the row, then the recording. Another person's is a 404. */
export async function deleteVoicePrompt(ctx: ServiceContext, ownerId: string, id: string): Promise<void> {
  const row = await ctx.env.DB.prepare('DELETE FROM voice_prompts WHERE id = ?1 AND owner_id = ?2 RETURNING r2_key')
    .bind(id, ownerId)
    .first<{ r2_key: string | null }>();
  if (!row) throw voicePromptNotFound();
  if (row.r2_key) await ctx.env.BLOBS.delete(row.r2_key);
}
