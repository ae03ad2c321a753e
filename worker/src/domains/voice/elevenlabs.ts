import { log } from '../../lib/logger';
import type { Speech, SpeechSynthesiser } from './persona-engine/speech';
import { pcm16Wav } from './persona-engine/speech';

/**
 * ElevenLabs over its documented HTTP API (elevenlabs.io/docs/api-reference), the `elevenlabs` voice engine
 * (docs/server-rules.md "Voice, persona and chat import"; docs/decisions/voice.md "ElevenLabs"):
 *   POST   /v1/voices/add              multipart `name`, `files` (repeated), `description`, `labels` → {voice_id}
 *   POST   /v1/text-to-speech/{id}     JSON {text, model_id}, `?output_format=pcm_22050` → raw PCM s16le mono
 *   DELETE /v1/voices/{id}             → {status: "ok"}
 * authenticated by the `xi-api-key` header. The key is a secret (ELEVENLABS_API_KEY) and is never logged.
 * Speech is asked for as raw PCM at 22,050 Hz so the server counts the seconds it was given from the samples
 * themselves (bytes ÷ 2 ÷ rate) and wraps them in a WAV header: every engine's reply audio is then a WAV.
 */
export interface ElevenLabsEnv {
  ELEVENLABS_API_KEY?: string;
  /** Tests point it at a local peer; default https://api.elevenlabs.io. */
  ELEVENLABS_API_BASE?: string;
  /** The text-to-speech model; default eleven_multilingual_v2. */
  ELEVENLABS_MODEL_ID?: string;
}

export const ELEVENLABS_DEFAULT_BASE = 'https://api.elevenlabs.io';
export const ELEVENLABS_DEFAULT_MODEL = 'eleven_multilingual_v2';
export const ELEVENLABS_OUTPUT_FORMAT = 'pcm_22050';
export const ELEVENLABS_PCM_RATE = 22050;

/** A refusal or an outage of the provider, in words for the owner; `status` 0 when it could not be reached. */
export class ElevenLabsError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ElevenLabsError';
  }
}

export interface CloneFile {
  bytes: Uint8Array;
  filename: string;
  contentType: string;
}

export interface ElevenLabsClient {
  /** Instant voice cloning: the samples' bytes as they were uploaded → the new voice's id. */
  addVoice(input: { name: string; description: string; files: CloneFile[] }): Promise<string>;
  /** Speech in that voice, as a WAV, with its length counted from the PCM returned. */
  speak(voiceId: string, text: string): Promise<Speech>;
  /** 'deleted', or 'gone' when the provider no longer has it (deleted before: nothing left to do). */
  deleteVoice(voiceId: string): Promise<'deleted' | 'gone'>;
}

/** ElevenLabs' error bodies: `{detail: {status, message}}`, or a validation list `{detail: [{msg}]}`, or a string. */
function providerMessage(body: unknown): string | null {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail))
    return (
      detail
        .map((d) => (d as { msg?: string }).msg ?? '')
        .filter(Boolean)
        .join('; ') || null
    );
  if (detail && typeof detail === 'object') return (detail as { message?: string }).message ?? null;
  return null;
}

export const isElevenLabsConfigured = (env: ElevenLabsEnv) => Boolean(env.ELEVENLABS_API_KEY?.trim());

export function elevenLabsClient(env: ElevenLabsEnv, fetcher: typeof fetch = fetch): ElevenLabsClient {
  const key = env.ELEVENLABS_API_KEY?.trim();
  const base = (env.ELEVENLABS_API_BASE?.trim() || ELEVENLABS_DEFAULT_BASE).replace(/\/+$/, '');
  const model = env.ELEVENLABS_MODEL_ID?.trim() || ELEVENLABS_DEFAULT_MODEL;

  async function call(what: string, path: string, init: RequestInit): Promise<Response> {
    if (!key) throw new ElevenLabsError(0, 'ElevenLabs is the configured voice engine but this server has no ELEVENLABS_API_KEY');
    let res: Response;
    try {
      res = await fetcher(`${base}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), 'xi-api-key': key } });
    } catch (err) {
      // The error of a failed fetch names the address, never the key.
      log.warn('elevenlabs unreachable', { what, error: String(err) });
      throw new ElevenLabsError(0, 'ElevenLabs could not be reached');
    }
    if (res.ok) return res;
    const message = providerMessage(await res.json().catch(() => null));
    log.warn('elevenlabs refused', { what, status: res.status, message });
    throw new ElevenLabsError(res.status, message ? `ElevenLabs answered ${res.status}: ${message}` : `ElevenLabs answered ${res.status}`);
  }

  return {
    async addVoice({ name, description, files }) {
      const form = new FormData();
      form.append('name', name);
      form.append('description', description);
      for (const f of files) form.append('files', new Blob([f.bytes], { type: f.contentType }), f.filename);
      const res = await call('voices/add', '/v1/voices/add', { method: 'POST', headers: { accept: 'application/json' }, body: form });
      const voiceId = ((await res.json().catch(() => null)) as { voice_id?: unknown } | null)?.voice_id;
      if (typeof voiceId !== 'string' || !voiceId) throw new ElevenLabsError(res.status, 'ElevenLabs answered without a voice id');
      return voiceId;
    },

    async speak(voiceId, text) {
      const res = await call('text-to-speech', `/v1/text-to-speech/${encodeURIComponent(voiceId)}?output_format=${ELEVENLABS_OUTPUT_FORMAT}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'audio/pcm' },
        body: JSON.stringify({ text, model_id: model }),
      });
      const pcm = new Uint8Array(await res.arrayBuffer());
      // 16-bit samples: an odd trailing byte is not a sample.
      const even = pcm.subarray(0, pcm.length - (pcm.length % 2));
      if (even.length === 0) throw new ElevenLabsError(res.status, 'ElevenLabs answered with no audio');
      return { audio: pcm16Wav(even, ELEVENLABS_PCM_RATE), contentType: 'audio/wav', seconds: even.length / 2 / ELEVENLABS_PCM_RATE };
    },

    async deleteVoice(voiceId) {
      try {
        await call('voices/delete', `/v1/voices/${encodeURIComponent(voiceId)}`, { method: 'DELETE' });
        return 'deleted';
      } catch (err) {
        // 404 `voice_not_found` (some API versions answer 400 with the same words): nothing left to delete.
        const gone = err instanceof ElevenLabsError && (err.status === 404 || (err.status === 400 && /not[ _]?found/i.test(err.detail)));
        if (gone) return 'gone';
        throw err;
      }
    },
  };
}

/** Speech in the owner's cloned voice (the profile's `provider_voice_id`). */
export function elevenLabsSynthesiser(client: ElevenLabsClient): SpeechSynthesiser {
  return {
    id: 'elevenlabs',
    async synthesize(text, tuning) {
      if (!tuning.provider_voice_id) throw new ElevenLabsError(0, 'No voice was cloned for this persona');
      return client.speak(tuning.provider_voice_id, text);
    },
  };
}
