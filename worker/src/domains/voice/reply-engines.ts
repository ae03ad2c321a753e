import type { Bindings } from '../../env';
import { AppError } from '../../lib/errors';
import { elevenLabsClient, elevenLabsSynthesiser, isElevenLabsConfigured } from './elevenlabs';
import { voiceEngine } from './engine';
import { localReplyEngine, type PersonaReplyEngine, workersAiReplyEngine } from './persona-engine/engines';
import { samSynthesiser, type SpeechSynthesiser, type VoiceTuning } from './persona-engine/speech';
import { workersAiSynthesiser } from './persona-engine/workers-ai-speech';

/** The reply engine VOICE_ENGINE names. `workers-ai` needs the AI binding; `elevenlabs` words replies like `local` (it only speaks). */
export function replyEngineFor(env: Pick<Bindings, 'VOICE_ENGINE' | 'AI'>): PersonaReplyEngine {
  const engine = voiceEngine(env);
  if (engine === 'workers-ai') {
    if (!env.AI) throw new AppError('NOT_IMPLEMENTED', 'The Workers AI engine is configured but this deployment has no AI binding');
    return workersAiReplyEngine(env.AI);
  }
  return localReplyEngine;
}

/**
 * The voice a reply is spoken in (docs/decisions/voice.md "Speech"): `elevenlabs` speaks in the owner's voice
 * cloned by the training, once there is one (before, or without a key, the local synthesiser tuned by the
 * profile); `workers-ai` speaks with MeloTTS through the AI binding; `local` with SAM.
 */
export function speechFor(
  env: Pick<Bindings, 'VOICE_ENGINE' | 'AI' | 'ELEVENLABS_API_KEY' | 'ELEVENLABS_API_BASE' | 'ELEVENLABS_MODEL_ID'>,
  tuning: Pick<VoiceTuning, 'provider_voice_id'>,
): SpeechSynthesiser {
  const engine = voiceEngine(env);
  if (engine === 'elevenlabs' && tuning.provider_voice_id && isElevenLabsConfigured(env)) return elevenLabsSynthesiser(elevenLabsClient(env));
  if (engine === 'workers-ai' && env.AI) return workersAiSynthesiser(env.AI);
  return samSynthesiser;
}
