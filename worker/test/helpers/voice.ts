import { fromBase64 } from '../../src/lib/encoding';
import { AUDIO_FIXTURES } from '../fixtures/voice/audio-fixtures';
import { api } from './api';

/** A committed fixture's bytes (test/fixtures/voice, made by sox, espeak-ng and ffmpeg). */
export function fixture(name: string): Uint8Array<ArrayBuffer> {
  const b64 = AUDIO_FIXTURES[name];
  if (!b64) throw new Error(`no fixture ${name}`);
  return fromBase64(b64)!;
}

/** A 16-bit PCM mono WAV of `samples` (each in [-1, 1]), written byte by byte. */
export function pcmWav(samples: Float32Array, rate: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(44 + samples.length * 2);
  const v = new DataView(out.buffer);
  const text = (at: number, s: string) => {
    for (let i = 0; i < s.length; i += 1) v.setUint8(at + i, s.charCodeAt(i));
  };
  text(0, 'RIFF');
  v.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  text(36, 'data');
  v.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i += 1) v.setInt16(44 + i * 2, Math.round(Math.max(-1, Math.min(1, samples[i]!)) * 32767), true);
  return out;
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
