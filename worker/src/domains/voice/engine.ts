import type { TVoiceEngine } from '../../contracts/voice';
import { ZVoiceEngine } from '../../contracts/voice';
import type { Bindings } from '../../env';

/**
 * The voice engine in use (docs/server-rules.md "Voice, persona and chat import"), from VOICE_ENGINE: `local`
 * unless set; `workers-ai` and `elevenlabs` are built too (docs/decisions/voice.md). The Voice Trainer page shows it.
 */
export function voiceEngine(env: Pick<Bindings, 'VOICE_ENGINE'>): TVoiceEngine {
  const parsed = ZVoiceEngine.safeParse(env.VOICE_ENGINE?.trim() || 'local');
  return parsed.success ? parsed.data : 'local';
}

/** Engines whose training this build can run. */
export const BUILT_ENGINES: readonly TVoiceEngine[] = ['local', 'workers-ai', 'elevenlabs'];
