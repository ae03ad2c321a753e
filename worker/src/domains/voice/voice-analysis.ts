import { readWav } from './audio-duration';

/**
 * The local engine's voice profile (docs/server-rules.md "Voice, persona and chat import": tuned by a voice profile
 * measured from the user's samples, pitch and rate): measured from PCM, which WAV samples carry. Opus and
 * Vorbis would need a decoder in the Worker; their seconds still count, but only WAV contributes pitch and rate
 * (and the profile says how many seconds it was measured on). Not a neural clone: two numbers that tune a
 * synthesiser.
 */

/** At most this much audio per sample is analysed: a profile needs a few minutes, not an hour. */
const MAX_ANALYSED_SECONDS = 120;
/** Voices sit between 60 and 400 Hz; the analysis runs at about 8 kHz. */
const MIN_PITCH_HZ = 60;
const MAX_PITCH_HZ = 400;
const FRAME_MS = 40;
const HOP_MS = 20;

/** Mono samples in [-1, 1] and their rate, from a PCM WAV; null when the WAV is not PCM we can read. */
export function wavToMono(bytes: Uint8Array): { samples: Float32Array; rate: number } | null {
  const wav = readWav(bytes);
  if ('reason' in wav) return null;
  const { format, channels, sampleRate, bitsPerSample, blockAlign } = wav;
  const readable = (format === 1 && [8, 16, 24, 32].includes(bitsPerSample)) || (format === 3 && bitsPerSample === 32);
  if (!readable || channels === 0 || blockAlign === 0 || sampleRate === 0) return null;
  // Decimate to about 8 kHz (pitch lives far below 4 kHz); averaging the step's samples is a crude low-pass.
  const step = Math.max(1, Math.floor(sampleRate / 8000));
  const totalFrames = Math.min(Math.floor(wav.dataBytes / blockAlign), MAX_ANALYSED_SECONDS * sampleRate);
  const out = new Float32Array(Math.floor(totalFrames / step));
  const view = new DataView(bytes.buffer, bytes.byteOffset + wav.dataOffset, wav.dataBytes);
  const bytesPer = bitsPerSample / 8;
  const sampleAt = (offset: number): number => {
    if (format === 3) return view.getFloat32(offset, true);
    if (bitsPerSample === 8) return (view.getUint8(offset) - 128) / 128;
    if (bitsPerSample === 16) return view.getInt16(offset, true) / 32768;
    if (bitsPerSample === 24) return ((view.getUint8(offset + 2) << 24) | (view.getUint8(offset + 1) << 16) | (view.getUint8(offset) << 8)) / 2147483648;
    return view.getInt32(offset, true) / 2147483648;
  };
  for (let i = 0; i < out.length; i += 1) {
    let sum = 0;
    for (let s = 0; s < step; s += 1) {
      const frame = (i * step + s) * blockAlign;
      for (let c = 0; c < channels; c += 1) sum += sampleAt(frame + c * bytesPer);
    }
    out[i] = sum / (step * channels);
  }
  return { samples: out, rate: sampleRate / step };
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The pitch of one frame by normalised autocorrelation, or null when the frame is not voiced. */
function framePitch(x: Float32Array, start: number, length: number, rate: number): number | null {
  const minLag = Math.floor(rate / MAX_PITCH_HZ);
  const maxLag = Math.ceil(rate / MIN_PITCH_HZ);
  if (start + length + maxLag > x.length) return null;
  const corr = (lag: number) => {
    let num = 0;
    let a = 0;
    let b = 0;
    for (let i = start; i < start + length; i += 1) {
      num += x[i]! * x[i + lag]!;
      a += x[i]! * x[i]!;
      b += x[i + lag]! * x[i + lag]!;
    }
    return a > 0 && b > 0 ? num / Math.sqrt(a * b) : 0;
  };
  const scores: number[] = [];
  let best = -1;
  let bestLag = 0;
  for (let lag = minLag; lag <= maxLag; lag += 1) {
    const c = corr(lag);
    scores.push(c);
    if (c > best) {
      best = c;
      bestLag = lag;
    }
  }
  if (best < 0.6) return null;
  // The first lag near the best score: the fundamental, not a multiple of its period (octave errors).
  for (let i = 0; i < scores.length; i += 1) {
    if (scores[i]! >= best * 0.9 && (i === 0 || scores[i]! >= scores[i - 1]!) && (i + 1 >= scores.length || scores[i]! >= scores[i + 1]!)) {
      bestLag = minLag + i;
      break;
    }
  }
  // Parabolic interpolation between the neighbouring lags for a sub-sample period.
  const i = bestLag - minLag;
  const [l, m, r] = [scores[i - 1], scores[i]!, scores[i + 1]];
  const shift = l !== undefined && r !== undefined && l - 2 * m + r !== 0 ? (0.5 * (l - r)) / (l - 2 * m + r) : 0;
  return rate / (bestLag + shift);
}

export interface VoiceFeatures {
  /** Median fundamental frequency of the voiced frames, Hz. */
  pitchHz: number | null;
  /** Syllable-like energy peaks per second of speech (voiced or loud frames). */
  syllablesPerSecond: number | null;
  /** Seconds of audio looked at. */
  analysedSeconds: number;
}

/** Pitch and speaking rate of one mono signal. */
export function analyseVoice(x: Float32Array, rate: number): VoiceFeatures {
  const frame = Math.round((rate * FRAME_MS) / 1000);
  const hop = Math.round((rate * HOP_MS) / 1000);
  const energies: number[] = [];
  const starts: number[] = [];
  for (let start = 0; start + frame <= x.length; start += hop) {
    let e = 0;
    for (let i = start; i < start + frame; i += 1) e += x[i]! * x[i]!;
    energies.push(Math.sqrt(e / frame));
    starts.push(start);
  }
  const analysedSeconds = x.length / rate;
  const loudest =
    median(
      energies
        .filter((e) => e > 0)
        .sort((a, b) => b - a)
        .slice(0, Math.max(1, Math.ceil(energies.length / 10))),
    ) ?? 0;
  if (loudest === 0) return { pitchHz: null, syllablesPerSecond: null, analysedSeconds };
  const speaking = energies.map((e) => e >= loudest * 0.1);
  const pitches: number[] = [];
  energies.forEach((_, k) => {
    if (!speaking[k]) return;
    const p = framePitch(x, starts[k]!, frame, rate);
    if (p !== null) pitches.push(p);
  });
  // Syllable nuclei: local maxima of the energy envelope, above a third of the loud level, a dip of a
  // quarter between two of them, at least 100 ms apart.
  let peaks = 0;
  let lastPeak = -Infinity;
  let valley = Infinity;
  const minGap = Math.round(100 / HOP_MS);
  for (let k = 1; k + 1 < energies.length; k += 1) {
    valley = Math.min(valley, energies[k]!);
    const e = energies[k]!;
    if (e >= loudest / 3 && e >= energies[k - 1]! && e > energies[k + 1]! && k - lastPeak >= minGap && valley <= e * 0.75) {
      peaks += 1;
      lastPeak = k;
      valley = Infinity;
    }
  }
  const speakingSeconds = (speaking.filter(Boolean).length * HOP_MS) / 1000;
  return {
    pitchHz: pitches.length >= 5 ? median(pitches) : null,
    syllablesPerSecond: speakingSeconds >= 1 && peaks > 0 ? peaks / speakingSeconds : null,
    analysedSeconds,
  };
}
