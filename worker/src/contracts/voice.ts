import { z } from 'zod';
import { formConsent } from './form-fields';
import { VOICE_ENGINES, VOICE_PROFILE_STATUSES } from '@afterword/db/enums';

/**
 * Voice samples and the voice profile (docs/product.md "Voice, persona and chat import";
 * docs/decisions/voice.md). Durations are the server's measurement of the bytes, never the client's.
 */

/** docs/product.md "Voice, persona and chat import": training needs at least 30 seconds of collected voice data. */
export const VOICE_SECONDS_REQUIRED = 30;
/** One sample: a few minutes of 48 kHz WAV, parsed in memory inside a Worker's 128 MB. */
export const VOICE_SAMPLE_MAX_BYTES = 20 * 1024 * 1024;
/**
 * A WebM/Ogg sample may come with `analysis_file`: the same recording decoded by the browser into a 16-bit
 * mono WAV at 8 kHz, at most its first two minutes, on which the server measures pitch and rate (the Worker
 * cannot decode Opus/Vorbis: docs/decisions/voice.md "Pitch from WebM and Ogg").
 */
export const VOICE_ANALYSIS_MAX_SECONDS = 120;
export const VOICE_ANALYSIS_RATE = 8000;
export const VOICE_ANALYSIS_MAX_BYTES = VOICE_ANALYSIS_MAX_SECONDS * VOICE_ANALYSIS_RATE * 2 + 1024;
export const VOICE_SAMPLE_MAX_BODY_BYTES = VOICE_SAMPLE_MAX_BYTES + VOICE_ANALYSIS_MAX_BYTES + 64 * 1024;
/** A sample shorter than this carries nothing a profile can use (a click of the record button). */
export const VOICE_SAMPLE_MIN_MS = 500;
export const VOICE_LABEL_MAX = 120;
export const VOICE_ACCEPTED_TYPES = ['audio/webm', 'audio/ogg', 'audio/wav'] as const;

export const VOICE_ERRORS = {
  consent:
    'consent must be true: confirm that this is your own voice (or that you have the right to use it) and that Afterword may build a voice profile from it',
  unsupported: 'Only WebM, Ogg (Opus or Vorbis) and WAV audio can be used as voice samples; the file was recognised by its content, not its name or type',
  tooShort: `The recording is shorter than ${VOICE_SAMPLE_MIN_MS / 1000} s: record a sentence or two`,
} as const;

const consent = formConsent(VOICE_ERRORS.consent);

/** POST /api/voice/upload: the text fields (`file` is checked apart, by its bytes). */
export const ZVoiceUploadFields = z.object({
  consent,
  label: z
    .string()
    .max(VOICE_LABEL_MAX, { message: `label must be at most ${VOICE_LABEL_MAX} characters` })
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : null)),
});
export type TVoiceUploadFields = z.output<typeof ZVoiceUploadFields>;

export const ZVoiceSample = z.object({
  id: z.string(),
  label: z.string(),
  content_type: z.enum(VOICE_ACCEPTED_TYPES),
  codec: z.string(),
  size: z.number().int(),
  /** Measured by the server from the bytes. */
  duration_ms: z.number().int(),
  /**
   * Seconds of a WebM/Ogg sample whose pitch and rate were measured at upload, on the browser's WAV rendition;
   * null for a WAV (measured from its own bytes at training) or when no rendition came with it.
   */
  analysed_seconds: z.number().nullable(),
  created_at: z.string(),
});
export type VoiceSampleView = z.infer<typeof ZVoiceSample>;

export const ZVoiceEngine = z.enum(VOICE_ENGINES);
export type TVoiceEngine = z.infer<typeof ZVoiceEngine>;

/** What training measured: a voice profile (pitch, speaking rate) for the local synthesiser, not a neural clone. */
export const ZVoiceProfileView = z.object({
  /** Median pitch of the voiced parts, Hz; null when no sample had PCM (WAV) to measure. */
  pitch_hz: z.number().nullable(),
  syllables_per_second: z.number().nullable(),
  seconds_used: z.number(),
  seconds_analysed: z.number(),
  sample_count: z.number().int(),
  completed_at: z.string(),
});

/** GET /api/voice/status (docs/api.md). */
export const ZVoiceStatus = z.object({
  status: z.enum(['not_started', ...VOICE_PROFILE_STATUSES]),
  seconds_collected: z.number(),
  seconds_required: z.literal(VOICE_SECONDS_REQUIRED),
  engine: ZVoiceEngine,
  /** Why the last training failed. */
  error: z.string().nullable(),
  profile: ZVoiceProfileView.nullable(),
  samples: z.array(ZVoiceSample),
});
export type VoiceStatus = z.infer<typeof ZVoiceStatus>;

/** Seconds still missing before training may start (the Start button's 'Need {n}s more'). */
export const secondsMissing = (collected: number) => Math.max(0, Math.ceil(VOICE_SECONDS_REQUIRED - collected));

export const PROMPT_MAX = 500;
export const PROMPT_RESPONSE_MAX = 5000;

/** A form's boolean arrives as text. */
const formBoolean = z.preprocess(
  (v) => (v === 'true' || v === 'on' || v === '1' ? true : v === 'false' || v === '0' || v === '' || v === undefined ? false : v),
  z.boolean({ message: 'locked must be true or false' }),
);

/** POST /api/voice/prompt: the text fields (`file?` is checked apart, by its bytes). */
export const ZVoicePromptFields = z.object({
  prompt: z
    .string({ message: 'prompt is required: the question this answers' })
    .trim()
    .min(1, { message: 'prompt is required: the question this answers' })
    .max(PROMPT_MAX, { message: `prompt must be at most ${PROMPT_MAX} characters` }),
  response_text: z
    .string()
    .max(PROMPT_RESPONSE_MAX, { message: `response_text must be at most ${PROMPT_RESPONSE_MAX.toLocaleString('en-US')} characters` })
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : null)),
  locked: formBoolean,
});
export type TVoicePromptFields = z.output<typeof ZVoicePromptFields>;

export const ZVoicePrompt = z.object({
  id: z.string(),
  prompt: z.string(),
  response_text: z.string().nullable(),
  has_audio: z.boolean(),
  content_type: z.enum(VOICE_ACCEPTED_TYPES).nullable(),
  duration_ms: z.number().int().nullable(),
  size: z.number().int(),
  locked: z.boolean(),
  created_at: z.string(),
});
export type VoicePromptView = z.infer<typeof ZVoicePrompt>;
