import type { User } from '@afterword/db/schema';
import {
  VOICE_ANALYSIS_MAX_BYTES,
  VOICE_ANALYSIS_MAX_SECONDS,
  VOICE_ERRORS,
  VOICE_SAMPLE_MAX_BYTES,
  VOICE_SAMPLE_MIN_MS,
  type TVoiceUploadFields,
  type VoiceSampleView,
} from '../../contracts/voice';
import { cleanFileName, formatBytes } from '../../contracts/attachments';
import type { ServiceContext } from '../../env';
import { AppError, bodyFieldError } from '../../lib/errors';
import { assertStorageFits, quotaExceeded, storageLimitBytes, storageUsedBytes, storageUsedSql } from '../storage/storage-meter';
import { consentWithdrawn, consentWithdrawnSql, requireConsent } from '../legal/consent-state';
import { measureAudio, sniffAudio } from './audio-duration';
import { analyseVoice, wavToMono } from './voice-analysis';
import { forgetClonedVoice } from './cloned-voice';

export const VOICE_KEY_PREFIX = 'voice/';
export const voiceSampleKey = (ownerId: string, id: string) => `${VOICE_KEY_PREFIX}${ownerId}/${id}`;

export const voiceSampleNotFound = () => new AppError('NOT_FOUND', 'Voice sample not found');

interface SampleRow {
  id: string;
  label: string;
  content_type: VoiceSampleView['content_type'];
  codec: string;
  size: number;
  duration_ms: number;
  analysed_seconds: number | null;
  created_at: number;
}

const toView = (r: SampleRow): VoiceSampleView => ({
  id: r.id,
  label: r.label,
  content_type: r.content_type,
  codec: r.codec,
  size: r.size,
  duration_ms: r.duration_ms,
  analysed_seconds: r.analysed_seconds == null ? null : Math.round(r.analysed_seconds * 10) / 10,
  created_at: new Date(r.created_at).toISOString(),
});

/** The owner's samples, oldest first. */
export async function listVoiceSamples(ctx: ServiceContext, ownerId: string): Promise<VoiceSampleView[]> {
  const { results } = await ctx.env.DB.prepare(
    'SELECT id, label, content_type, codec, size, duration_ms, analysed_seconds, created_at FROM voice_samples WHERE owner_id = ?1 ORDER BY created_at, id',
  )
    .bind(ownerId)
    .all<SampleRow>();
  return results.map(toView);
}

/**
 * POST /api/voice/upload: one recording. Refused before anything is stored when the voice consent is
 * withdrawn (403), the file is too large (413), not WebM/Ogg/WAV by its bytes (415), not measurable or
 * too short (422), or past the plan's storage (403 with the upgrade hint, as vault files). The bytes go
 * to R2 first; the row is inserted only while the file still fits the plan (one conditional statement),
 * and the object is deleted again when it is not: a refused upload leaves nothing behind.
 */
export async function uploadVoiceSample(
  ctx: ServiceContext,
  owner: Pick<User, 'id' | 'plan'>,
  fields: TVoiceUploadFields,
  file: { bytes: Uint8Array; fileName: string },
  analysisFile: Uint8Array | null = null,
): Promise<VoiceSampleView> {
  await requireConsent(ctx, owner.id, 'voice', consentWithdrawn('voice', 'no voice samples are stored'));
  const size = file.bytes.byteLength;
  if (size > VOICE_SAMPLE_MAX_BYTES)
    throw new AppError('PAYLOAD_TOO_LARGE', `A voice sample must be at most ${formatBytes(VOICE_SAMPLE_MAX_BYTES)} (${VOICE_SAMPLE_MAX_BYTES} bytes)`);
  const measured = measureAudio(file.bytes);
  if (!measured.ok) {
    if (measured.reason === 'not WAV, Ogg or WebM audio') throw new AppError('UNSUPPORTED_MEDIA_TYPE', VOICE_ERRORS.unsupported);
    throw bodyFieldError('file', `The recording could not be measured: ${measured.reason}`, 'audio_unreadable');
  }
  if (measured.durationMs < VOICE_SAMPLE_MIN_MS) throw bodyFieldError('file', VOICE_ERRORS.tooShort, 'audio_too_short');
  // A WAV is measured from its own bytes at training; a WebM/Ogg sample by the rendition sent with it, now.
  const features = measured.type === 'audio/wav' || !analysisFile ? null : measureRendition(analysisFile, measured.durationMs);
  await assertStorageFits(ctx, owner, size);
  const limit = storageLimitBytes(owner.plan);

  const id = crypto.randomUUID();
  const key = voiceSampleKey(owner.id, id);
  const label = fields.label ?? (file.fileName && file.fileName !== 'blob' ? cleanFileName(file.fileName).slice(0, 120) : 'Recording');
  const now = ctx.now().getTime();
  await ctx.env.BLOBS.put(key, file.bytes, { httpMetadata: { contentType: measured.type }, customMetadata: { owner: owner.id, voice: id } });
  let written: number;
  try {
    const result = await ctx.env.DB.prepare(
      `INSERT INTO voice_samples (id, owner_id, r2_key, label, content_type, codec, size, duration_ms, consent_at, created_at,
         pitch_hz, syllables_per_second, analysed_seconds)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?11, ?12, ?13
       WHERE ${storageUsedSql('?2')} + ?7 <= ?10
         AND NOT ${consentWithdrawnSql('?2', 'voice')}`,
    )
      .bind(
        id,
        owner.id,
        key,
        label,
        measured.type,
        measured.codec,
        size,
        measured.durationMs,
        now,
        limit,
        features?.pitchHz ?? null,
        features?.syllablesPerSecond ?? null,
        features?.analysedSeconds ?? null,
      )
      .run();
    written = result.meta.changes;
  } catch (err) {
    await ctx.env.BLOBS.delete(key);
    throw err;
  }
  if (written !== 1) {
    await ctx.env.BLOBS.delete(key);
    // The consent was withdrawn or the storage filled up between the checks and the insert: say which.
    await requireConsent(ctx, owner.id, 'voice', consentWithdrawn('voice', 'no voice samples are stored'));
    throw quotaExceeded(owner.plan, await storageUsedBytes(ctx, owner.id), size);
  }
  return toView({
    id,
    label,
    content_type: measured.type,
    codec: measured.codec,
    size,
    duration_ms: measured.durationMs,
    analysed_seconds: features?.analysedSeconds ?? null,
    created_at: now,
  });
}

/**
 * Pitch and rate of a WebM/Ogg sample from `analysis_file`, the browser's WAV rendition of it. Checked to be
 * that recording's length (its first two minutes at most: within a quarter second or 5 %), so a stray file
 * is refused with 422 rather than measured; the rendition itself is not stored.
 */
function measureRendition(bytes: Uint8Array, originalMs: number): ReturnType<typeof analyseVoice> {
  const refuse = (why: string) => bodyFieldError('analysis_file', `analysis_file must be this recording decoded as a WAV: ${why}`, 'analysis_mismatch');
  if (bytes.byteLength > VOICE_ANALYSIS_MAX_BYTES) throw refuse(`at most ${VOICE_ANALYSIS_MAX_SECONDS} s of 16-bit mono at 8 kHz`);
  const mono = sniffAudio(bytes) === 'audio/wav' ? wavToMono(bytes) : null;
  if (!mono) throw refuse('it is not a PCM WAV');
  const seconds = mono.samples.length / mono.rate;
  const expected = Math.min(originalMs / 1000, VOICE_ANALYSIS_MAX_SECONDS);
  if (Math.abs(seconds - expected) > Math.max(0.25, expected * 0.05)) throw refuse(`it lasts ${seconds.toFixed(1)} s, the recording ${expected.toFixed(1)} s`);
  return analyseVoice(mono.samples, mono.rate);
}

/** DELETE /api/voice/samples/{id}: the row, then the bytes. Another person's sample is a 404. */
export async function deleteVoiceSample(ctx: ServiceContext, ownerId: string, id: string): Promise<void> {
  const row = await ctx.env.DB.prepare('DELETE FROM voice_samples WHERE id = ?1 AND owner_id = ?2 RETURNING r2_key')
    .bind(id, ownerId)
    .first<{ r2_key: string }>();
  if (!row) throw voiceSampleNotFound();
  await ctx.env.BLOBS.delete(row.r2_key);
}

/**
 * Everything voice of one user: samples and Messages from the Beyond (rows, then bytes), the voice
 * profile (and the voice cloned from it at the provider) and the persona. What withdrawing the voice
 * consent does (docs/decisions/data-rights.md): the profile is erased, not paused, and the recordings it
 * was made from go with it.
 */
export async function eraseVoiceData(ctx: ServiceContext, userId: string): Promise<void> {
  const db = ctx.env.DB;
  const [samples, prompts, profile] = await db.batch<{ r2_key?: string | null; provider_voice_id?: string | null }>([
    db.prepare('DELETE FROM voice_samples WHERE owner_id = ?1 RETURNING r2_key').bind(userId),
    db.prepare('DELETE FROM voice_prompts WHERE owner_id = ?1 RETURNING r2_key').bind(userId),
    db.prepare('DELETE FROM voice_profiles WHERE user_id = ?1 RETURNING provider_voice_id').bind(userId),
    db.prepare('DELETE FROM persona_profiles WHERE user_id = ?1').bind(userId),
  ]);
  const keys = [...(samples?.results ?? []), ...(prompts?.results ?? [])].flatMap((r) => (r.r2_key ? [r.r2_key] : []));
  for (let i = 0; i < keys.length; i += 1000) await ctx.env.BLOBS.delete(keys.slice(i, i + 1000));
  // The voice cloned from the samples, at the provider: after the local erasure, never blocking it.
  const voiceId = profile?.results[0]?.provider_voice_id;
  if (voiceId) await forgetClonedVoice(ctx, voiceId);
}
