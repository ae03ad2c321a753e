import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { PERSONA_BEHAVIORS, VOICE_ENGINES, VOICE_PROFILE_STATUSES } from './enums';
import { users } from './users';

/*
 * Voice samples and the voice profile built from them (docs/decisions/voice.md). Both are the owner's
 * alone, go with the account, and are deleted when the voice consent is withdrawn.
 */

/**
 * One uploaded recording: the bytes in R2 under `r2_key` (counted in the owner's storage), the type
 * sniffed from them and the duration measured from them by the server (never the client's figures).
 */
export const voiceSamples = sqliteTable(
  'voice_samples',
  {
    id: text('id').primaryKey(),
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    r2_key: text('r2_key').notNull(),
    label: text('label').notNull(),
    content_type: text('content_type', { enum: ['audio/wav', 'audio/ogg', 'audio/webm'] }).notNull(),
    codec: text('codec').notNull(),
    size: integer('size').notNull(),
    duration_ms: integer('duration_ms').notNull(),
    consent_at: integer('consent_at', { mode: 'timestamp_ms' }).notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('voice_samples_owner_idx').on(t.owner_id, t.created_at)],
);

/**
 * The owner's voice profile: one row from the first training on. `attempt_id` names the training the
 * queued job belongs to, so a redelivered or superseded job changes nothing. A profile, not a model:
 * the pitch and speaking rate that tune the local engine's synthesiser.
 */
export const voiceProfiles = sqliteTable('voice_profiles', {
  user_id: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  status: text('status', { enum: VOICE_PROFILE_STATUSES }).notNull(),
  engine: text('engine', { enum: VOICE_ENGINES }).notNull(),
  attempt_id: text('attempt_id').notNull(),
  /** Why the last training failed, in words for the owner. */
  error: text('error'),
  pitch_hz: real('pitch_hz'),
  syllables_per_second: real('syllables_per_second'),
  /** Seconds of samples the training used, and of those how many had PCM to measure pitch and rate on. */
  seconds_used: real('seconds_used'),
  seconds_analysed: real('seconds_analysed'),
  sample_count: integer('sample_count'),
  started_at: integer('started_at', { mode: 'timestamp_ms' }).notNull(),
  completed_at: integer('completed_at', { mode: 'timestamp_ms' }),
});

export type VoiceSample = typeof voiceSamples.$inferSelect;
export type VoiceProfile = typeof voiceProfiles.$inferSelect;

/**
 * The persona the owner sets up (POST /api/ai/train-profile): who they are in their own words, the tone
 * replies take, and their answers to the seed questions (`qa`: [{question_id, answer}], ids from
 * worker/src/contracts/persona.ts). The material the local engine will answer from; erased with the voice
 * consent like the voice profile.
 */
export const personaProfiles = sqliteTable('persona_profiles', {
  user_id: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  persona_text: text('persona_text').notNull(),
  behavior: text('behavior', { enum: PERSONA_BEHAVIORS }).notNull(),
  qa: text('qa', { mode: 'json' }).$type<{ question_id: string; answer: string }[]>().notNull(),
  created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  updated_at: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

export type PersonaProfile = typeof personaProfiles.$inferSelect;

/**
 * Message from the Beyond (SPEC section 3 "voice prompt"; POST /api/voice/prompt): a question and the
 * owner's own answer, written (`response_text`) and/or recorded (`r2_key`, measured like samples).
 * `locked` ones are for after the owner's release only. Counted in the owner's storage.
 */
export const voicePrompts = sqliteTable(
  'voice_prompts',
  {
    id: text('id').primaryKey(),
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    prompt: text('prompt').notNull(),
    response_text: text('response_text'),
    r2_key: text('r2_key'),
    content_type: text('content_type', { enum: ['audio/wav', 'audio/ogg', 'audio/webm'] }),
    size: integer('size').notNull(),
    duration_ms: integer('duration_ms'),
    locked: integer('locked', { mode: 'boolean' }).notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('voice_prompts_owner_idx').on(t.owner_id, t.created_at)],
);
