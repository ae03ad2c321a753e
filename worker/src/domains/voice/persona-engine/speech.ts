import SamJs from 'sam-js';
import { monoWav } from '../../../contracts/wav';

/**
 * Speech for persona replies (docs/server-rules.md "Voice, persona and chat import": a synthesiser shipped in
 * an npm package). The local synthesiser is SAM (`sam-js`, 21 kB minified, pure JavaScript, no WebAssembly, no
 * data files, nothing downloaded at run time): it runs in workerd as is. It is a formant synthesiser of the 1982
 * Software Automatic Mouth: robotic, and tuned by the owner's voice profile (pitch, speaking rate) — a
 * voice profile, not a neural clone, as the pages say. Why not espeak-ng/meSpeak: see
 * docs/decisions/voice.md "Speech".
 */
export interface VoiceTuning {
  /** The owner's measured median pitch, Hz (null: not measured). */
  pitch_hz: number | null;
  /** The owner's measured speaking rate (null: not measured). */
  syllables_per_second: number | null;
  /** The owner's voice cloned at the provider (elevenlabs), if any. */
  provider_voice_id?: string | null;
}

export type SpeechContentType = 'audio/wav' | 'audio/mpeg';

export interface Speech {
  /** The audio file: a WAV (SAM, ElevenLabs' PCM) or an MP3 (Workers AI's MeloTTS). */
  audio: Uint8Array;
  contentType: SpeechContentType;
  /** Its length, counted by the server from the audio itself (samples ÷ rate, or MP3 frames). */
  seconds: number;
}

export interface SpeechSynthesiser {
  readonly id: string;
  synthesize(text: string, tuning: VoiceTuning): Promise<Speech>;
}

export const SAM_RATE = 22050;
const SAM_DEFAULT_PITCH = 64;
const SAM_DEFAULT_SPEED = 72;
/**
 * SAM's `pitch` setting against the fundamental it produces, measured with voice-analysis.ts on SAM's own
 * output (docs/decisions/voice.md): a lower setting is a higher voice.
 */
const PITCH_TABLE: readonly (readonly [setting: number, hz: number])[] = [
  [30, 290],
  [40, 223],
  [50, 170],
  [64, 126],
  [80, 100],
  [100, 80],
  [120, 67],
];
/** SAM at speed 72 speaks about 3.75 syllable peaks a second (measured the same way); time scales with `speed`. */
const SAM_SYLLABLES_AT_DEFAULT = 3.75;

/** The SAM pitch setting whose voice is nearest `hz` (interpolated in the table). */
export function samPitchFor(hz: number | null): number {
  if (!hz || !Number.isFinite(hz)) return SAM_DEFAULT_PITCH;
  if (hz >= PITCH_TABLE[0]![1]) return PITCH_TABLE[0]![0];
  for (let i = 1; i < PITCH_TABLE.length; i += 1) {
    const [s1, h1] = PITCH_TABLE[i]!;
    const [s0, h0] = PITCH_TABLE[i - 1]!;
    if (hz >= h1) return Math.round(s0 + ((h0 - hz) / (h0 - h1)) * (s1 - s0));
  }
  return PITCH_TABLE.at(-1)![0];
}

export function samSpeedFor(syllablesPerSecond: number | null): number {
  if (!syllablesPerSecond || !Number.isFinite(syllablesPerSecond)) return SAM_DEFAULT_SPEED;
  return Math.round(Math.min(140, Math.max(45, (SAM_DEFAULT_SPEED * SAM_SYLLABLES_AT_DEFAULT) / syllablesPerSecond)));
}

/** SAM reads plain ASCII: accents folded, typographic quotes straightened, anything else dropped. */
export function samText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[‘’]/g, "'")
    .replace(/[“”«»]/g, '')
    .replace(/[—–]/g, ', ')
    .replace(/[^A-Za-z0-9 .,?!'-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** SAM takes a phrase at a time (its buffer holds about 255 phonemes): sentences, long ones cut at words. */
export function phrases(text: string, max = 100): string[] {
  const out: string[] = [];
  for (const sentence of text.match(/[^.!?]+[.!?]*/g) ?? []) {
    let current = '';
    for (const word of sentence.trim().split(' ')) {
      if (current && current.length + word.length + 1 > max) {
        out.push(current);
        current = word;
      } else current = current ? `${current} ${word}` : word;
    }
    if (current) out.push(current);
  }
  return out.filter((p) => /[A-Za-z0-9]/.test(p));
}

export const wavOf = (pcm8: Uint8Array, rate: number) => monoWav(pcm8, rate, 8);
/** 16-bit little-endian mono PCM (ElevenLabs' `pcm_*` output) as a WAV. */
export const pcm16Wav = (pcm: Uint8Array, rate: number) => monoWav(pcm, rate, 16);

const MP3_BITRATES = {
  v1l3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2l3: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MP3_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** The MPEG audio Layer III frame whose header starts at `at`: its size in bytes, its samples and rate. */
function mp3FrameAt(bytes: Uint8Array, at: number): { size: number; samples: number; rate: number } | null {
  if (at + 4 > bytes.length || bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) return null;
  const b1 = bytes[at + 1]!;
  const b2 = bytes[at + 2]!;
  const version = (b1 >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const layer = (b1 >> 1) & 3; // 1: Layer III
  const bitrateIndex = b2 >> 4;
  const rate = MP3_RATES[version]?.[(b2 >> 2) & 3];
  if (layer !== 1 || !rate || bitrateIndex === 0 || bitrateIndex === 15) return null;
  const kbps = (version === 3 ? MP3_BITRATES.v1l3 : MP3_BITRATES.v2l3)[bitrateIndex]!;
  const samples = version === 3 ? 1152 : 576;
  return { size: Math.floor(((samples / 8) * kbps * 1000) / rate) + ((b2 >> 1) & 1), samples, rate };
}

/** A LAME/Xing "Info" or "Xing" frame: metadata in the first frame's place, not played. */
function isInfoFrame(bytes: Uint8Array, at: number, size: number): boolean {
  const text = String.fromCharCode(...bytes.subarray(at + 4, Math.min(at + 4 + 40, at + size)));
  return text.includes('Xing') || text.includes('Info');
}

/**
 * The length of an MP3 (MPEG-1/2/2.5 Layer III) from its frames: each frame header gives its bitrate, rate
 * and padding, hence its size and its samples (1152, or 576 for MPEG-2/2.5). An ID3v2 tag is skipped, and so
 * is a LAME/Xing Info frame (metadata). A first frame counts only if another frame header follows it, so a
 * stray 0xFFE… in other data is not taken for MP3; a truncated last frame is not counted. Null when no frame
 * is found. The encoder's delay and padding are counted as played (a few tens of milliseconds).
 */
export function mp3Seconds(bytes: Uint8Array): number | null {
  let at = 0;
  if (bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33 && bytes.length >= 10) {
    at = 10 + (((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f));
  }
  let seconds = 0;
  let frames = 0;
  while (at + 4 <= bytes.length) {
    const frame = mp3FrameAt(bytes, at);
    const locked = frame && (frames > 0 || at + frame.size === bytes.length || mp3FrameAt(bytes, at + frame.size) !== null);
    if (!frame || !locked) {
      at += 1;
      continue;
    }
    if (at + frame.size > bytes.length) break;
    if (!(frames === 0 && isInfoFrame(bytes, at, frame.size))) seconds += frame.samples / frame.rate;
    frames += 1;
    at += frame.size;
  }
  return seconds > 0 ? seconds : null;
}

export const samSynthesiser: SpeechSynthesiser = {
  id: 'sam',
  async synthesize(text, tuning) {
    const sam = new SamJs({ pitch: samPitchFor(tuning.pitch_hz), speed: samSpeedFor(tuning.syllables_per_second) });
    const pause = new Uint8Array(Math.round(SAM_RATE * 0.12)).fill(128);
    const parts: Uint8Array[] = [];
    for (const phrase of phrases(samText(text))) {
      const pcm = sam.buf8(phrase);
      if (pcm instanceof Uint8Array && pcm.length > 0) parts.push(pcm, pause);
    }
    const length = parts.reduce((n, p) => n + p.length, 0);
    const pcm = new Uint8Array(length);
    let at = 0;
    for (const p of parts) {
      pcm.set(p, at);
      at += p.length;
    }
    return { audio: wavOf(pcm, SAM_RATE), contentType: 'audio/wav', seconds: length / SAM_RATE };
  },
};
