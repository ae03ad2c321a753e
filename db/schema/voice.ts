import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
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
    /**
     * Pitch and speaking rate of a WebM/Ogg sample, measured by the server at upload on a WAV rendition the
     * browser decoded from it (the Worker has no Opus/Vorbis decoder: docs/decisions/voice.md); null when none
     * was sent. A WAV sample is measured from its own bytes at training instead.
     */
    pitch_hz: real('pitch_hz'),
    syllables_per_second: real('syllables_per_second'),
    analysed_seconds: real('analysed_seconds'),
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
  /**
   * The voice cloned at the provider from the samples (VOICE_ENGINE=elevenlabs: ElevenLabs' `voice_id`),
   * null for the local and workers-ai engines. Deleted at the provider with the profile.
   */
  provider_voice_id: text('provider_voice_id'),
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
 * Message from the Beyond (docs/product.md "Voice, persona and chat import"; POST /api/voice/prompt): a
 * question and the owner's own answer, written (`response_text`) and/or recorded (`r2_key`, measured like samples).
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

/*
 * Who may talk to the persona, and its retirement (docs/decisions/voice.md "Who may talk
 * to the persona"). Before the owner's release only the owner; after it, the recipients the owner chose.
 */

/**
 * A person the owner chose to talk to their persona after release: one of the owner's accepted contacts,
 * picked on the Voice Trainer page. `retired_at`: the recipient retired the persona for themselves.
 */
export const personaRecipients = sqliteTable(
  'persona_recipients',
  {
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recipient_user_id: text('recipient_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    added_at: integer('added_at', { mode: 'timestamp_ms' }).notNull(),
    retired_at: integer('retired_at', { mode: 'timestamp_ms' }),
  },
  (t) => [primaryKey({ columns: [t.owner_id, t.recipient_user_id] }), index('persona_recipients_recipient_idx').on(t.recipient_user_id)],
);

/**
 * The owner's persona settings beyond the persona itself: the keeper (a contact who may retire the persona
 * for everyone after release) and, once retired for everyone, when and by whom (the profile and what was
 * derived from it are deleted then; this row is what remains, so nothing answers again by accident).
 */
export const personaSettings = sqliteTable(
  'persona_settings',
  {
    owner_id: text('owner_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    keeper_user_id: text('keeper_user_id').references(() => users.id, { onDelete: 'set null' }),
    retired_at: integer('retired_at', { mode: 'timestamp_ms' }),
    retired_by: text('retired_by', { enum: ['owner', 'keeper'] }),
    updated_at: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  // A deleted account is cleared as keeper through this index, not by reading every persona's settings.
  (t) => [index('persona_settings_keeper_idx').on(t.keeper_user_id)],
);

/**
 * One conversation with a persona (a Voice Chat or Try-a-conversation visit): the seconds of synthesised
 * speech it got, held against the persona owner's plan (docs/product.md "Plans and billing", voice minutes per
 * session).
 */
export const personaChatSessions = sqliteTable(
  'persona_chat_sessions',
  {
    id: text('id').primaryKey(),
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    audio_ms: integer('audio_ms').notNull(),
    turns: integer('turns').notNull(),
    started_at: integer('started_at', { mode: 'timestamp_ms' }).notNull(),
    last_at: integer('last_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('persona_chat_sessions_owner_idx').on(t.owner_id), index('persona_chat_sessions_user_idx').on(t.user_id)],
);
