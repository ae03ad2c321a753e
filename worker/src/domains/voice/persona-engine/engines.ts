import type { ReplySource } from '../../../contracts/persona-chat';
import type { TVoiceEngine } from '../../../contracts/voice';
import type { Retrieval } from './retrieval';
import { type Behavior, shapeNoMatch, shapeOwnWords, TONES, withoutLifeClaims } from './tone';

/**
 * The persona reply engines behind one interface (docs/server-rules.md "Voice, persona and chat import"): the
 * caller retrieves the owner's words (retrieval.ts) and hands them over; an engine only words the reply. Chosen
 * by VOICE_ENGINE (engine.ts).
 */
export interface ReplyRequest {
  prompt: string;
  behavior: Behavior;
  retrieval: Retrieval;
  /** Questions the person did answer, offered when nothing matches. */
  answered: readonly string[];
}

export interface EngineReply {
  text: string;
  source: ReplySource;
  based_on: string[];
}

export interface PersonaReplyEngine {
  readonly id: TVoiceEngine;
  reply(request: ReplyRequest): Promise<EngineReply>;
}

/** What every engine says when nothing the person left answers: the same honest no-match, in the tone. */
function noMatch(request: ReplyRequest): EngineReply {
  return { text: shapeNoMatch(request.behavior, request.answered), source: 'no_match', based_on: [] };
}

/** `local`: offline, no model. The best match, quoted in the tone's framing. */
export const localReplyEngine: PersonaReplyEngine = {
  id: 'local',
  async reply(request) {
    for (const match of request.retrieval.matches) {
      const text = shapeOwnWords(request.behavior, match);
      if (text) return { text, source: 'own_words', based_on: [match.label] };
    }
    return noMatch(request);
  },
};

/** A text-generation call: `{messages}` → `{response}`. */
export interface WorkersAiChatInput {
  messages: { role: 'system' | 'user'; content: string }[];
  max_tokens?: number;
  temperature?: number;
}
/** Text to speech (`@cf/myshell-ai/melotts`): `{prompt, lang}` → `{audio}` (base64 MP3). */
export interface WorkersAiSpeechInput {
  prompt: string;
  lang?: string;
}
/** Speech to text (`@cf/openai/whisper`): `{audio}` (the file's bytes as numbers) → `{text}`. */
export interface WorkersAiTranscribeInput {
  audio: number[];
}

/**
 * The slice of the Workers AI binding the engines use (`env.AI.run(model, input)`): the reply model, text to
 * speech and speech to text (persona-engine/workers-ai-speech.ts). Declared here so the adapters are tested
 * with a recording fake: the binding has no local simulation.
 */
export interface WorkersAiBinding {
  run(model: string, input: WorkersAiChatInput | WorkersAiSpeechInput | WorkersAiTranscribeInput): Promise<unknown>;
}

export const WORKERS_AI_MODEL = '@cf/meta/llama-3.1-8b-instruct';

/** The rules the model is given; the same rules the local engine keeps by construction. */
export function groundingPrompt(behavior: Behavior, snippets: Retrieval['matches']): string {
  const tone = { playful: 'playful and light', wise: 'wise and reflective', comforting: 'warm and comforting', neutral: 'plain and neutral' }[behavior];
  return [
    'You speak as a person who has died, to someone they chose, using ONLY their own words given below.',
    `Tone: ${tone}. Speak in the first person, in at most four sentences.`,
    'Rules: never claim to be alive or present now; never mention any product, service, plan, price or upgrade;',
    'never invent facts, memories or opinions that are not in the words below; if they do not answer the question, say that you did not leave words about it.',
    'Their own words:',
    ...snippets.map((s, i) => `[${i + 1}] ${s.question ? `(${s.question}) ` : ''}${s.text}`),
  ].join('\n');
}

/**
 * `workers-ai`: an LLM words the reply from the retrieved snippets only. Its words are not the person's,
 * and the reply says so (`ai_worded`, with a closing line); with nothing retrieved the model is not asked.
 */
export function workersAiReplyEngine(ai: WorkersAiBinding, model = WORKERS_AI_MODEL): PersonaReplyEngine {
  return {
    id: 'workers-ai',
    async reply(request) {
      const { matches } = request.retrieval;
      if (matches.length === 0) return noMatch(request);
      const out = (await ai.run(model, {
        messages: [
          { role: 'system', content: groundingPrompt(request.behavior, matches) },
          { role: 'user', content: request.prompt },
        ],
        max_tokens: 256,
        temperature: 0.3,
      })) as { response?: unknown } | null;
      const worded = typeof out?.response === 'string' ? withoutLifeClaims(out.response.trim()) : '';
      // A model that answered nothing usable: fall back to quoting their words, which is always honest.
      if (!worded) return localReplyEngine.reply(request);
      return {
        text: `${worded} (Worded by an AI model from their own words; not a quote.)`,
        source: 'ai_worded',
        based_on: matches.map((m) => m.label),
      };
    },
  };
}

export { TONES };
