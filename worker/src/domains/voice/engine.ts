import type { TVoiceEngine } from '../../contracts/voice';
import { ZVoiceEngine } from '../../contracts/voice';
import type { Bindings } from '../../env';

/**
 * The voice engine in use (DESIGN section 8), from VOICE_ENGINE: `local` unless set. Only `local` is
 * built (docs/decisions/voice.md); a deployment configured for another engine shows it on the Voice
 * Trainer page, and its training fails with a reason that says so instead of pretending.
 */
export function voiceEngine(env: Pick<Bindings, 'VOICE_ENGINE'>): TVoiceEngine {
  const parsed = ZVoiceEngine.safeParse(env.VOICE_ENGINE?.trim() || 'local');
  return parsed.success ? parsed.data : 'local';
}

/** Engines whose training this build can run. */
export const BUILT_ENGINES: readonly TVoiceEngine[] = ['local'];
