import { PLAN_LIMITS } from '../../contracts/plans';
import { SEED_QUESTIONS } from '../../contracts/persona';
import { type PersonaReplyView, type TPersonaPrompt, ZPersonaPrompt } from '../../contracts/persona-chat';
import { parseOrThrow } from '../../lib/validation';
import type { ServiceContext } from '../../env';
import { AppError, notFound } from '../../lib/errors';
import { toBase64 } from '../../lib/encoding';
import { consentWithdrawn, requireConsent } from '../legal/consent-state';
import { NO_PERSONA, requireListener } from './persona-access';
import type { PersonaReplyEngine } from './persona-engine/engines';
import { loadPersonaMaterial, type PersonaAudience } from './persona-engine/material';
import { PersonaIndex } from './persona-engine/retrieval';
import type { Speech, SpeechSynthesiser, VoiceTuning } from './persona-engine/speech';
import { replyEngineFor, speechFor } from './reply-engines';
import { log } from '../../lib/logger';
import type { Behavior } from './persona-engine/tone';

/**
 * A persona's reply (POST /api/voice/simulate-response for the owner, POST /api/personas/{id}/reply for a
 * chosen recipient after release): retrieval over the owner's words, worded by the configured engine,
 * spoken by the synthesiser within the session's voice minutes (docs/decisions/voice.md "Persona replies").
 */

/** A conversation idle this long is over: the next turn starts a new session. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;

/** Said beside a reply whose voice could not be produced (a provider refused or was unreachable). */
export const SPEECH_FAILED_NOTICE = 'The voice could not be produced just now: this reply is text only.';

interface PersonaMeta {
  behavior: Behavior;
  qa: string;
  plan: keyof typeof PLAN_LIMITS;
  pitch_hz: number | null;
  syllables_per_second: number | null;
  provider_voice_id: string | null;
}

interface SessionRow {
  id: string;
  audio_ms: number;
}

/** The session this turn counts against: the one named if it is this listener's, with this persona, and still live; else a new one. */
async function sessionFor(ctx: ServiceContext, ownerId: string, userId: string, sessionId: string | undefined): Promise<SessionRow> {
  const now = ctx.now().getTime();
  if (sessionId) {
    const row = await ctx.env.DB.prepare('SELECT id, audio_ms FROM persona_chat_sessions WHERE id = ?1 AND owner_id = ?2 AND user_id = ?3 AND last_at > ?4')
      .bind(sessionId, ownerId, userId, now - SESSION_IDLE_MS)
      .first<SessionRow>();
    if (row) return row;
  }
  const id = crypto.randomUUID();
  await ctx.env.DB.prepare('INSERT INTO persona_chat_sessions (id, owner_id, user_id, audio_ms, turns, started_at, last_at) VALUES (?1, ?2, ?3, 0, 0, ?4, ?4)')
    .bind(id, ownerId, userId, now)
    .run();
  return { id, audio_ms: 0 };
}

export interface ReplyDeps {
  engine?: PersonaReplyEngine;
  speech?: SpeechSynthesiser;
}

async function reply(
  ctx: ServiceContext,
  ownerId: string,
  userId: string,
  audience: PersonaAudience,
  input: TPersonaPrompt,
  deps: ReplyDeps = {},
): Promise<PersonaReplyView> {
  const meta = await ctx.env.DB.prepare(
    `SELECT p.behavior, p.qa, u.plan, v.pitch_hz, v.syllables_per_second, v.provider_voice_id FROM persona_profiles p JOIN users u ON u.id = p.user_id
     LEFT JOIN voice_profiles v ON v.user_id = p.user_id AND v.status = 'complete' WHERE p.user_id = ?1`,
  )
    .bind(ownerId)
    .first<PersonaMeta>();
  if (!meta) throw notFound(NO_PERSONA);
  const engine = deps.engine ?? replyEngineFor(ctx.env);
  const tuning: VoiceTuning = { pitch_hz: meta.pitch_hz, syllables_per_second: meta.syllables_per_second, provider_voice_id: meta.provider_voice_id };
  const speech = deps.speech ?? speechFor(ctx.env, tuning);

  const material = await loadPersonaMaterial(ctx, ownerId, audience);
  const retrieval = new PersonaIndex(material).find(input.prompt);
  const answeredIds = new Set((JSON.parse(meta.qa) as { question_id: string }[]).map((a) => a.question_id));
  const answered = SEED_QUESTIONS.filter((q) => answeredIds.has(q.id)).map((q) => q.text);
  const worded = await engine.reply({ prompt: input.prompt, behavior: meta.behavior, retrieval, answered });

  const session = await sessionFor(ctx, ownerId, userId, input.session_id);
  const plan = PLAN_LIMITS[meta.plan] ?? PLAN_LIMITS.free;
  const limitMs = plan.voiceMinutes * 60_000;
  let audio = '';
  let audioType: Speech['contentType'] | null = null;
  let audioMs = 0;
  let notice: string | null = null;
  const usedUp = `This conversation has used its ${limitMs / 60_000} minutes of spoken replies; replies go on as text. A new conversation starts after ${SESSION_IDLE_MS / 60_000} minutes without a question.`;
  if (limitMs === 0) {
    notice = audience.isOwner
      ? `Replies are text only: the ${plan.name} plan has no voice minutes per session.`
      : 'Replies are text only: spoken replies are not included for this persona.';
  } else if (session.audio_ms >= limitMs) {
    // Nothing left: no speech is asked for (a provider's synthesis is paid for).
    notice = usedUp;
  } else {
    let spoken: Speech | null = null;
    try {
      spoken = await speech.synthesize(worded.text, tuning);
    } catch (err) {
      // A provider's refusal or outage: the reply still comes, as text, and says so beside it.
      log.warn('persona speech failed', { owner_id: ownerId, speech: speech.id, error: String(err) });
      notice = SPEECH_FAILED_NOTICE;
    }
    if (spoken) {
      audioMs = Math.ceil(spoken.seconds * 1000);
      // Counted on the server, and only if it still fits: two turns at once cannot both pass the limit.
      const counted = await ctx.env.DB.prepare(
        'UPDATE persona_chat_sessions SET audio_ms = audio_ms + ?2, turns = turns + 1, last_at = ?3 WHERE id = ?1 AND audio_ms + ?2 <= ?4 RETURNING audio_ms',
      )
        .bind(session.id, audioMs, ctx.now().getTime(), limitMs)
        .first<{ audio_ms: number }>();
      if (counted) {
        audio = toBase64(spoken.audio);
        audioType = spoken.contentType;
        session.audio_ms = counted.audio_ms;
      } else {
        audioMs = 0;
        notice = usedUp;
      }
    }
  }
  if (audioMs === 0) {
    await ctx.env.DB.prepare('UPDATE persona_chat_sessions SET turns = turns + 1, last_at = ?2 WHERE id = ?1').bind(session.id, ctx.now().getTime()).run();
  }
  return {
    text: worded.text,
    audio_base64: audio,
    audio_content_type: audioType,
    source: worded.source,
    based_on: worded.based_on,
    session_id: session.id,
    audio_seconds: audioMs / 1000,
    voice_seconds_left: Math.max(0, (limitMs - session.audio_ms) / 1000),
    notice,
    engine: engine.id,
  };
}

/** POST /api/voice/simulate-response: the owner tries their own persona (hears everything they left, locked or not). */
export async function simulateResponse(ctx: ServiceContext, ownerId: string, input: TPersonaPrompt, deps?: ReplyDeps): Promise<PersonaReplyView> {
  await requireConsent(ctx, ownerId, 'voice', consentWithdrawn('voice', 'the persona does not answer'));
  const exists = await ctx.env.DB.prepare('SELECT 1 AS x FROM persona_profiles WHERE user_id = ?1').bind(ownerId).first();
  if (!exists) throw new AppError('CONFLICT', 'Set up your persona first (the persona setup on the Voice Trainer page): it answers from your own words');
  return reply(ctx, ownerId, ownerId, { isOwner: true, released: false }, input, deps);
}

/** POST /api/personas/{id}/reply: the owner, or a recipient they chose once released; 404 for anyone else. */
export async function replyAsPersona(
  ctx: ServiceContext,
  ownerId: string,
  userId: string,
  body: Partial<TPersonaPrompt>,
  deps?: ReplyDeps,
): Promise<PersonaReplyView> {
  const s = await requireListener(ctx, ownerId, userId);
  const input = parseOrThrow(ZPersonaPrompt, body, 'body');
  return reply(ctx, ownerId, userId, { isOwner: s.isOwner, released: s.released }, input, deps);
}
