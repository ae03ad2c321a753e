import type { User } from '@afterword/db/schema';
import type { VoiceTrainingJob } from '../../contracts/jobs';
import { secondsMissing, VOICE_SECONDS_REQUIRED, type VoiceStatus } from '../../contracts/voice';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { log } from '../../lib/logger';
import { consentWithdrawn, requireConsent } from '../legal/consent-state';
import { forgetClonedVoice } from './cloned-voice';
import { type CloneFile, ElevenLabsError, elevenLabsClient } from './elevenlabs';
import { BUILT_ENGINES, voiceEngine } from './engine';
import { listVoiceSamples } from './samples';
import { analyseVoice, wavToMono } from './voice-analysis';

interface ProfileRow {
  status: 'processing' | 'complete' | 'failed';
  engine: VoiceStatus['engine'];
  attempt_id: string;
  error: string | null;
  pitch_hz: number | null;
  syllables_per_second: number | null;
  seconds_used: number | null;
  seconds_analysed: number | null;
  sample_count: number | null;
  completed_at: number | null;
  provider_voice_id: string | null;
}

const profileRow = (ctx: ServiceContext, userId: string) =>
  ctx.env.DB.prepare('SELECT * FROM voice_profiles WHERE user_id = ?1').bind(userId).first<ProfileRow>();

const round1 = (n: number) => Math.round(n * 10) / 10;

/** GET /api/voice/status: the training's state, the measured seconds, the engine and the samples. */
export async function voiceStatus(ctx: ServiceContext, userId: string): Promise<VoiceStatus> {
  const [samples, row] = await Promise.all([listVoiceSamples(ctx, userId), profileRow(ctx, userId)]);
  const seconds = round1(samples.reduce((sum, s) => sum + s.duration_ms, 0) / 1000);
  return {
    status: row?.status ?? 'not_started',
    seconds_collected: seconds,
    seconds_required: VOICE_SECONDS_REQUIRED,
    // The profile's own engine once trained; the configured one before.
    engine: row?.engine ?? voiceEngine(ctx.env),
    error: row?.status === 'failed' ? row.error : null,
    profile:
      row?.status === 'complete' && row.completed_at != null
        ? {
            pitch_hz: row.pitch_hz == null ? null : round1(row.pitch_hz),
            syllables_per_second: row.syllables_per_second == null ? null : round1(row.syllables_per_second),
            seconds_used: row.seconds_used ?? 0,
            seconds_analysed: row.seconds_analysed ?? 0,
            sample_count: row.sample_count ?? 0,
            completed_at: new Date(row.completed_at).toISOString(),
          }
        : null,
    samples,
  };
}

/**
 * POST /api/voice/train: 409 under 30 measured seconds or while a training runs; otherwise the profile
 * becomes `processing` under a new attempt id (one conditional upsert, so two clicks start one
 * training) and a JOBS message builds it. A queue that refuses the message leaves `failed` with the
 * reason, never a `processing` that nothing will finish.
 */
export async function startVoiceTraining(ctx: ServiceContext, user: Pick<User, 'id'>): Promise<VoiceStatus> {
  await requireConsent(ctx, user.id, 'voice', consentWithdrawn('voice', 'no voice profile is trained'));
  const seconds = (await voiceStatus(ctx, user.id)).seconds_collected;
  if (seconds < VOICE_SECONDS_REQUIRED)
    throw new AppError(
      'CONFLICT',
      `Training needs at least ${VOICE_SECONDS_REQUIRED} s of voice samples; you have ${seconds} s. Record ${secondsMissing(seconds)} s more.`,
    );
  const attemptId = crypto.randomUUID();
  const engine = voiceEngine(ctx.env);
  const now = ctx.now().getTime();
  const started = await ctx.env.DB.prepare(
    `INSERT INTO voice_profiles (user_id, status, engine, attempt_id, error, started_at) VALUES (?1, 'processing', ?2, ?3, NULL, ?4)
     ON CONFLICT (user_id) DO UPDATE SET status = 'processing', engine = excluded.engine, attempt_id = excluded.attempt_id, error = NULL,
       started_at = excluded.started_at
     WHERE voice_profiles.status != 'processing'`,
  )
    .bind(user.id, engine, attemptId, now)
    .run();
  if (started.meta.changes !== 1) throw new AppError('CONFLICT', 'A training is already in progress: wait for it to finish');
  try {
    await ctx.env.JOBS.send({ type: 'voice_training', user_id: user.id, attempt_id: attemptId } satisfies VoiceTrainingJob, { contentType: 'json' });
  } catch (err) {
    log.error('enqueue failed', { queue: 'JOBS', type: 'voice_training', error: String(err) });
    await finish(ctx, user.id, attemptId, { failed: 'The training could not be queued; try again in a minute' });
  }
  return voiceStatus(ctx, user.id);
}

type Outcome =
  | { failed: string }
  | {
      pitchHz: number | null;
      syllablesPerSecond: number | null;
      secondsUsed: number;
      secondsAnalysed: number;
      sampleCount: number;
      /** The voice cloned at the provider (elevenlabs); null keeps none. */
      providerVoiceId: string | null;
    };

/** Writes the attempt's outcome, only while that attempt is the one processing (a late job changes nothing). */
async function finish(ctx: ServiceContext, userId: string, attemptId: string, outcome: Outcome): Promise<boolean> {
  const now = ctx.now().getTime();
  const result =
    'failed' in outcome
      ? await ctx.env.DB.prepare(
          `UPDATE voice_profiles SET status = 'failed', error = ?3, completed_at = NULL WHERE user_id = ?1 AND attempt_id = ?2 AND status = 'processing'`,
        )
          .bind(userId, attemptId, outcome.failed)
          .run()
      : await ctx.env.DB.prepare(
          `UPDATE voice_profiles SET status = 'complete', error = NULL, pitch_hz = ?3, syllables_per_second = ?4, seconds_used = ?5,
             seconds_analysed = ?6, sample_count = ?7, completed_at = ?8, provider_voice_id = ?9
           WHERE user_id = ?1 AND attempt_id = ?2 AND status = 'processing'`,
        )
          .bind(
            userId,
            attemptId,
            outcome.pitchHz,
            outcome.syllablesPerSecond,
            outcome.secondsUsed,
            outcome.secondsAnalysed,
            outcome.sampleCount,
            now,
            outcome.providerVoiceId,
          )
          .run();
  return result.meta.changes === 1;
}

function medianOf(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * The JOBS consumer of `voice_training`: measures pitch and speaking rate on the owner's WAV samples and
 * takes those measured at upload on the browser's WAV rendition of a WebM/Ogg sample (weighted by the
 * seconds each gave); with the `elevenlabs` engine it also clones the voice from the samples' bytes at
 * ElevenLabs (a refusal or an outage ends as `failed` with the reason); then it completes the attempt.
 * Idempotent: a redelivered job, or one for an attempt that is no longer processing (finished,
 * superseded, erased by a withdrawn consent), does nothing. Failures a retry cannot fix end as `failed` with the reason; a storage hiccup is thrown, so
 * the queue would retry it forever: an unexpected error ends as `failed` too, and the owner starts again.
 */
export async function runVoiceTraining(ctx: ServiceContext, job: VoiceTrainingJob): Promise<'trained' | 'failed' | 'skipped'> {
  const row = await profileRow(ctx, job.user_id);
  if (!row || row.attempt_id !== job.attempt_id || row.status !== 'processing') return 'skipped';
  if (!BUILT_ENGINES.includes(row.engine)) {
    await finish(ctx, job.user_id, job.attempt_id, { failed: `The ${row.engine} voice engine is not available in this build; the local engine is` });
    return 'failed';
  }
  const { results: samples } = await ctx.env.DB.prepare(
    `SELECT id, label, r2_key, content_type, duration_ms, pitch_hz, syllables_per_second, analysed_seconds
     FROM voice_samples WHERE owner_id = ?1 ORDER BY created_at, id`,
  )
    .bind(job.user_id)
    .all<SampleRow>();
  const secondsUsed = samples.reduce((sum, s) => sum + s.duration_ms, 0) / 1000;
  if (secondsUsed < VOICE_SECONDS_REQUIRED) {
    await finish(ctx, job.user_id, job.attempt_id, {
      failed: `Samples were deleted while training: ${round1(secondsUsed)} s left of the ${VOICE_SECONDS_REQUIRED} s needed`,
    });
    return 'failed';
  }
  try {
    return await measureAndFinish(ctx, job, row, samples, secondsUsed);
  } catch (err) {
    log.error('voice training failed', { user_id: job.user_id, error: String(err) });
    await finish(ctx, job.user_id, job.attempt_id, { failed: 'The samples could not be read; start the training again' });
    return 'failed';
  }
}

interface SampleRow {
  id: string;
  label: string;
  r2_key: string;
  content_type: string;
  duration_ms: number;
  /** Measured at upload on the browser's WAV rendition of a WebM/Ogg sample. */
  pitch_hz: number | null;
  syllables_per_second: number | null;
  analysed_seconds: number | null;
}

/**
 * What the `elevenlabs` engine sends to instant voice cloning at most: the samples in the order they were
 * recorded, up to this many bytes (held in memory at once inside a Worker's 128 MB).
 */
export const CLONE_MAX_BYTES = 48 * 1024 * 1024;
const EXTENSIONS: Record<string, string> = { 'audio/wav': 'wav', 'audio/ogg': 'ogg', 'audio/webm': 'webm' };

async function measureAndFinish(
  ctx: ServiceContext,
  job: VoiceTrainingJob,
  row: ProfileRow,
  samples: SampleRow[],
  secondsUsed: number,
): Promise<'trained' | 'failed'> {
  const cloning = row.engine === 'elevenlabs';
  const pitches: number[] = [];
  let rateWeighted = 0;
  let rateSeconds = 0;
  let analysed = 0;
  const files: CloneFile[] = [];
  let cloneBytes = 0;
  const count = (features: { pitchHz: number | null; syllablesPerSecond: number | null; analysedSeconds: number }) => {
    analysed += features.analysedSeconds;
    // Each sample's pitch counts once per second it gave, so a long reading outweighs a short hello.
    if (features.pitchHz != null) for (let s = 0; s < Math.max(1, Math.round(features.analysedSeconds)); s += 1) pitches.push(features.pitchHz);
    if (features.syllablesPerSecond != null) {
      rateWeighted += features.syllablesPerSecond * features.analysedSeconds;
      rateSeconds += features.analysedSeconds;
    }
  };
  for (const sample of samples) {
    const wav = sample.content_type === 'audio/wav';
    if (!wav && sample.analysed_seconds != null)
      count({ pitchHz: sample.pitch_hz, syllablesPerSecond: sample.syllables_per_second, analysedSeconds: sample.analysed_seconds });
    if (!wav && !cloning) continue;
    const object = await ctx.env.BLOBS.get(sample.r2_key);
    if (!object) continue; // deleted since the list was read
    const bytes = new Uint8Array(await object.arrayBuffer());
    if (cloning && cloneBytes + bytes.length <= CLONE_MAX_BYTES) {
      // The bytes exactly as the owner uploaded them; the file name carries no personal label.
      files.push({ bytes, filename: `sample-${files.length + 1}.${EXTENSIONS[sample.content_type] ?? 'bin'}`, contentType: sample.content_type });
      cloneBytes += bytes.length;
    }
    if (!wav) continue;
    const mono = wavToMono(bytes);
    if (!mono) continue;
    count(analyseVoice(mono.samples, mono.rate));
  }
  let providerVoiceId: string | null = null;
  if (cloning) {
    try {
      providerVoiceId = await elevenLabsClient(ctx.env).addVoice({
        // Nothing that names the person goes to the provider: the account's id only.
        name: `Afterword ${job.user_id.slice(0, 8)}`,
        description: 'A voice profile kept by Afterword for one account; deleted with it.',
        files,
      });
    } catch (err) {
      if (!(err instanceof ElevenLabsError)) throw err;
      await finish(ctx, job.user_id, job.attempt_id, {
        failed: `The voice could not be cloned: ${err.detail.replace(/\.$/, '')}. Start the training again later.`,
      });
      return 'failed';
    }
  }
  const done = await finish(ctx, job.user_id, job.attempt_id, {
    pitchHz: medianOf(pitches),
    syllablesPerSecond: rateSeconds > 0 ? rateWeighted / rateSeconds : null,
    secondsUsed: round1(secondsUsed),
    secondsAnalysed: round1(analysed),
    sampleCount: samples.length,
    providerVoiceId,
  });
  if (providerVoiceId && !done) {
    // Superseded or erased while the provider cloned it: the new voice belongs to nothing.
    await forgetClonedVoice(ctx, providerVoiceId);
    return 'failed';
  }
  // A new training replaced the voice cloned before: the old one goes.
  if (done && row.provider_voice_id && row.provider_voice_id !== providerVoiceId) await forgetClonedVoice(ctx, row.provider_voice_id);
  return 'trained';
}
