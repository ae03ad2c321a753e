import { fromBase64 } from '../../../lib/encoding';
import type { WorkersAiBinding } from './engines';
import { mp3Seconds, type SpeechSynthesiser } from './speech';

/**
 * Workers AI speech for VOICE_ENGINE=workers-ai (docs/server-rules.md "Voice, persona and chat import"), behind
 * the same interfaces as the local engine, through the `AI` binding — which has no local simulation, so these
 * are tested against a recording fake binding (worker/test/voice-persona-engine.test.ts) and never against the
 * real models here.
 *  - text to speech: `@cf/myshell-ai/melotts` `{prompt, lang}` → `{audio}`, an MP3 in base64 (the binding's
 *    types also allow raw bytes); the seconds are counted from the MP3's frames (speech.ts `mp3Seconds`).
 *    MeloTTS has fixed voices: a stock voice, not the owner's (the pages say so).
 *  - speech to text: `@cf/openai/whisper` `{audio: number[]}` (the recording's bytes) → `{text}`, for a spoken
 *    question when the browser has no speech recognition.
 */
export const WORKERS_AI_TTS_MODEL = '@cf/myshell-ai/melotts';
export const WORKERS_AI_STT_MODEL = '@cf/openai/whisper';

export function workersAiSynthesiser(ai: WorkersAiBinding, model = WORKERS_AI_TTS_MODEL): SpeechSynthesiser {
  return {
    id: 'workers-ai',
    async synthesize(text) {
      const out = (await ai.run(model, { prompt: text, lang: 'en' })) as { audio?: unknown } | Uint8Array | null;
      const audio = out instanceof Uint8Array ? out : typeof out?.audio === 'string' ? fromBase64(out.audio) : null;
      const seconds = audio ? mp3Seconds(audio) : null;
      if (!audio || seconds == null) throw new Error('Workers AI answered without MP3 audio');
      return { audio, contentType: 'audio/mpeg', seconds };
    },
  };
}

/** The words of a spoken question (empty when nothing was understood). */
export async function transcribeWithWorkersAi(ai: WorkersAiBinding, recording: Uint8Array, model = WORKERS_AI_STT_MODEL): Promise<string> {
  const out = (await ai.run(model, { audio: [...recording] })) as { text?: unknown } | null;
  return typeof out?.text === 'string' ? out.text.trim() : '';
}
