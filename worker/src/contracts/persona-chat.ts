import { z } from 'zod';
import { PERSONA_BEHAVIORS, VOICE_ENGINES } from '@afterword/db/enums';
import { ZId } from './ids';

/**
 * Talking to a persona (docs/product.md "Voice, persona and chat import": a reply is text and audio_base64;
 * /voice/simulate-response; docs/decisions/voice.md "Persona replies").
 */

export const PERSONA_PROMPT_MAX = 1000;

export const ZPersonaPrompt = z.object({
  prompt: z
    .string({ message: 'prompt is required: what you want to ask' })
    .trim()
    .min(1, { message: 'prompt is required: what you want to ask' })
    .max(PERSONA_PROMPT_MAX, { message: `prompt must be at most ${PERSONA_PROMPT_MAX.toLocaleString('en-US')} characters` }),
  /** The conversation this turn belongs to (from the previous reply); a new one starts without it. */
  session_id: ZId.optional(),
});
export type TPersonaPrompt = z.output<typeof ZPersonaPrompt>;

/**
 * Where a reply's words come from: the person's own words (a stored answer, quoted), worded by an AI model
 * from their words (workers-ai), or nothing of theirs matched (the reply says so).
 */
export const REPLY_SOURCES = ['own_words', 'ai_worded', 'no_match'] as const;
export type ReplySource = (typeof REPLY_SOURCES)[number];

export const ZPersonaReply = z.object({
  text: z.string(),
  /** The reply spoken (a WAV, or an MP3 from Workers AI); empty when it is text only (see `notice`). */
  audio_base64: z.string(),
  /** The type of `audio_base64` (null when there is none): the player uses it. */
  audio_content_type: z.enum(['audio/wav', 'audio/mpeg']).nullable(),
  source: z.enum(REPLY_SOURCES),
  /** What the reply drew on, e.g. "Your answer to “What advice would you give …?”". */
  based_on: z.array(z.string()),
  session_id: z.string(),
  audio_seconds: z.number(),
  /** Seconds of speech left in this session under the persona owner's plan. */
  voice_seconds_left: z.number(),
  /** Said beside the reply, never in the person's voice (e.g. the voice minutes are used up). */
  notice: z.string().nullable(),
  engine: z.enum(VOICE_ENGINES),
});
export type PersonaReplyView = z.infer<typeof ZPersonaReply>;

/** A persona the caller may talk to (the Voice Chat page's list). */
export const ZChatPersona = z.object({
  owner_id: z.string(),
  name: z.string(),
  behavior: z.enum(PERSONA_BEHAVIORS),
  is_own: z.boolean(),
  /** The caller is the keeper: they may retire it for everyone. */
  is_keeper: z.boolean(),
  /** The caller may talk to it (the owner, or a chosen recipient who has not retired it); a keeper alone may only retire it. */
  can_talk: z.boolean(),
  voice_minutes_per_session: z.number(),
});
export type ChatPersonaView = z.infer<typeof ZChatPersona>;

const ZPerson = z.object({ user_id: z.string(), name: z.string(), email: z.string() });

/** The owner's choice of who may talk to the persona after release, and the keeper. */
export const ZPersonaAccess = z.object({
  recipients: z.array(ZPerson.extend({ retired_at: z.string().nullable() })),
  keeper: ZPerson.nullable(),
  /** Accepted contacts: the people the owner may choose from. */
  candidates: z.array(ZPerson),
  /** Whether the owner's release has happened (missed check-ins released a message, or death confirmed). */
  released: z.boolean(),
  retired_at: z.string().nullable(),
});
export type PersonaAccessView = z.infer<typeof ZPersonaAccess>;

export const PERSONA_RECIPIENTS_MAX = 50;

export const ZPersonaAccessInput = z.object({
  recipient_ids: z.array(ZId, { message: 'recipient_ids must be a list of user ids' }).max(PERSONA_RECIPIENTS_MAX),
  keeper_id: ZId.nullable(),
});
export type TPersonaAccessInput = z.output<typeof ZPersonaAccessInput>;

export const ZRetireInput = z.object({
  /** `me`: a recipient stops it for themselves; `everyone`: the keeper (or the owner) ends it and its data is deleted. */
  for: z.enum(['me', 'everyone'], { message: 'for must be me or everyone' }),
});
