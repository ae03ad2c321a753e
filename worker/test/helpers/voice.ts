import { fromBase64 } from '../../src/lib/encoding';
import { AUDIO_FIXTURES } from '../fixtures/voice/audio-fixtures';
import { api } from './api';

/** A committed fixture's bytes (test/fixtures/voice, made by sox, espeak-ng and ffmpeg). */
export function fixture(name: string): Uint8Array<ArrayBuffer> {
  const b64 = AUDIO_FIXTURES[name];
  if (!b64) throw new Error(`no fixture ${name}`);
  return fromBase64(b64)!;
}

/**
 * A voice-like tone: a fundamental of `pitchHz` with two harmonics, switched on and off `syllablesPerSecond`
 * times a second (half on, half off), for `seconds`.
 */
export function voiceLike(seconds: number, pitchHz: number, syllablesPerSecond: number, rate = 8000): Float32Array {
  const x = new Float32Array(Math.round(seconds * rate));
  for (let i = 0; i < x.length; i += 1) {
    const t = i / rate;
    const envelope = Math.sin(Math.PI * ((t * syllablesPerSecond) % 1)) ** 2;
    const w = 2 * Math.PI * pitchHz * t;
    x[i] = envelope * (0.5 * Math.sin(w) + 0.25 * Math.sin(2 * w) + 0.12 * Math.sin(3 * w));
  }
  return x;
}

/** POSTs one sample to /api/voice/upload as the page does. */
export async function uploadSample(token: string, bytes: Uint8Array, opts: { name?: string; label?: string; consent?: string; type?: string } = {}) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: opts.type ?? 'application/octet-stream' }), opts.name ?? 'sample.wav');
  form.append('label', opts.label ?? 'Reading a poem');
  form.append('consent', opts.consent ?? 'true');
  return api('POST', '/api/voice/upload', { token, body: form });
}
