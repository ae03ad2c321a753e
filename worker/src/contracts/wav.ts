/**
 * The WAV the voice API speaks both ways: 16-bit mono PCM that the browser renders a WebM/Ogg sample into
 * for the server to measure (`analysis_file`, web/src/features/voice/rendition.ts), and the speech the
 * persona engines answer with (domains/voice/persona-engine/speech.ts). A plain 44-byte RIFF header.
 */

/** A mono PCM WAV around `pcm` (8-bit unsigned or 16-bit little-endian samples). */
export function monoWav(pcm: Uint8Array, rate: number, bits: 8 | 16): Uint8Array<ArrayBuffer> {
  const bytesPerSample = bits / 8;
  const out = new Uint8Array(44 + pcm.length);
  const v = new DataView(out.buffer);
  const ascii = (at: number, s: string) => {
    for (let i = 0; i < s.length; i += 1) v.setUint8(at + i, s.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + pcm.length, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * bytesPerSample, true);
  v.setUint16(32, bytesPerSample, true);
  v.setUint16(34, bits, true);
  ascii(36, 'data');
  v.setUint32(40, pcm.length, true);
  out.set(pcm, 44);
  return out;
}

/** A 16-bit mono WAV of `samples`, each in [-1, 1] (clipped beyond). */
export function floatWav(samples: Float32Array, rate: number): Uint8Array<ArrayBuffer> {
  const pcm = new Uint8Array(samples.length * 2);
  const v = new DataView(pcm.buffer);
  for (let i = 0; i < samples.length; i += 1) v.setInt16(i * 2, Math.round(Math.max(-1, Math.min(1, samples[i]!)) * 32767), true);
  return monoWav(pcm, rate, 16);
}
