import { describe, expect, it } from 'vitest';
import { measureAudio, opusPacketMs, sniffAudio } from '../src/domains/voice/audio-duration';
import { analyseVoice, wavToMono } from '../src/domains/voice/voice-analysis';
import { fixture, voiceLike } from './helpers/voice';
import { floatWav } from '../src/contracts/wav';

/**
 * The server measures every voice sample from its bytes: fixtures of known length
 * made by real encoders (sox, espeak-ng, ffmpeg: test/fixtures/voice/make-fixtures.sh) are measured
 * within 50 ms, and a file that lies in its header is measured by its content.
 */
const SPEECH_MS = 3713; // espeak-ng's sentence, as sox and ffprobe measure the source WAV

describe('measuring a voice sample', () => {
  it.each([
    ['tone.wav', 'audio/wav', 1500],
    ['speech.wav', 'audio/wav', SPEECH_MS],
    ['speech.opus.ogg', 'audio/ogg', SPEECH_MS],
    ['speech.vorbis.ogg', 'audio/ogg', SPEECH_MS],
    ['speech.webm', 'audio/webm', SPEECH_MS],
    ['speech.live.webm', 'audio/webm', SPEECH_MS],
    // Chromium's MediaRecorder (record-chromium.mjs): 2.46 s as ffmpeg decodes it.
    ['chromium.mediarecorder.webm', 'audio/webm', 2460],
  ])('measures %s as %s of %i ms within 50 ms', (name, type, ms) => {
    const measured = measureAudio(fixture(name));
    expect(measured).toMatchObject({ ok: true, type });
    if (measured.ok) expect(Math.abs(measured.durationMs - ms)).toBeLessThanOrEqual(50);
  });

  it('reads a live WebM (no Segment Duration, unknown sizes) from its clusters and blocks', () => {
    const live = fixture('speech.live.webm');
    // The fixture really lacks the Duration element (ID 0x4489) and has an unknown-size Segment.
    const hex = Array.from(live.subarray(0, 400), (b) => b.toString(16).padStart(2, '0')).join('');
    expect(hex).not.toContain('4489');
    expect(hex).toContain('1853806701ffffffffffffff');
    expect(measureAudio(live)).toMatchObject({ ok: true, codec: 'opus' });
  });

  it('measures a WAV whose header claims more data than the file holds by the bytes that are there', () => {
    const wav = fixture('tone.wav').slice();
    new DataView(wav.buffer).setUint32(40, 0xffffffff, true); // data size: "unknown", as streaming writers leave it
    new DataView(wav.buffer).setUint32(4, 0xffffffff, true);
    expect(measureAudio(wav)).toMatchObject({ ok: true, durationMs: 1500 });
    const cut = fixture('tone.wav').subarray(0, 44 + 8000); // half a second of PCM left
    expect(measureAudio(cut)).toMatchObject({ ok: true, durationMs: 500 });
  });

  it('ignores a WebM Segment Duration that lies and measures the blocks', () => {
    const webm = fixture('speech.webm').slice();
    const at = findBytes(webm, [0x44, 0x89]);
    expect(at).toBeGreaterThan(0);
    // Duration is a float (4 or 8 bytes); claim an hour.
    const size = webm[at + 2]! & 0x7f;
    const view = new DataView(webm.buffer, at + 3, size);
    if (size === 8) view.setFloat64(0, 3_600_000);
    else view.setFloat32(0, 3_600_000);
    const measured = measureAudio(webm);
    expect(measured.ok && Math.abs(measured.durationMs - SPEECH_MS)).toBeLessThanOrEqual(50);
  });

  it('counts only complete Ogg pages of a truncated file', () => {
    const ogg = fixture('speech.opus.ogg');
    const measured = measureAudio(ogg.subarray(0, Math.floor(ogg.length / 2)));
    expect(measured.ok).toBe(true);
    if (measured.ok) expect(measured.durationMs).toBeLessThan(SPEECH_MS - 500);
  });

  it('refuses what is not audio it can measure', () => {
    expect(sniffAudio(new TextEncoder().encode('ID3\u0003 an mp3'))).toBeNull();
    expect(measureAudio(new TextEncoder().encode('hello'))).toEqual({ ok: false, reason: 'not WAV, Ogg or WebM audio' });
    expect(measureAudio(fixture('tone.wav').subarray(0, 30))).toMatchObject({ ok: false });
    expect(measureAudio(fixture('speech.webm').subarray(0, 60))).toMatchObject({ ok: false });
    expect(measureAudio(fixture('speech.opus.ogg').subarray(0, 40))).toMatchObject({ ok: false });
    // An empty data chunk: a WAV with no audio.
    expect(measureAudio(floatWav(new Float32Array(0), 8000))).toEqual({ ok: false, reason: 'the file holds no audio' });
  });

  it('reads the length of an Opus packet from its TOC byte', () => {
    expect(opusPacketMs(new Uint8Array([(31 << 3) | 0]))).toBe(20); // CELT 20 ms, one frame
    expect(opusPacketMs(new Uint8Array([(3 << 3) | 1]))).toBe(120); // SILK 60 ms, two frames
    expect(opusPacketMs(new Uint8Array([(16 << 3) | 3, 4]))).toBe(10); // CELT 2.5 ms, four frames
  });
});

describe('the voice profile measured from PCM', () => {
  it.each([110, 180, 240])('finds the pitch of a %i Hz voice-like tone within 3 percent', (hz) => {
    const { samples, rate } = wavToMono(floatWav(voiceLike(4, hz, 4), 8000))!;
    const features = analyseVoice(samples, rate);
    expect(Math.abs(features.pitchHz! - hz) / hz).toBeLessThan(0.03);
  });

  it('counts syllable-like bursts per second of speech', () => {
    const slow = analyseVoice(voiceLike(6, 150, 3), 8000).syllablesPerSecond!;
    const fast = analyseVoice(voiceLike(6, 150, 5), 8000).syllablesPerSecond!;
    // Per second of speaking (the quiet halves of each burst do not count), so above the burst rate.
    expect(slow).toBeGreaterThan(2.5);
    expect(fast).toBeGreaterThan(slow * 1.4);
  });

  it('puts espeak-ng speech in the range of a voice, and reads a 22 kHz file decimated', () => {
    const { samples, rate } = wavToMono(fixture('speech.wav'))!;
    expect(rate).toBe(8000);
    const features = analyseVoice(samples, rate);
    expect(features.pitchHz).toBeGreaterThan(70);
    expect(features.pitchHz).toBeLessThan(250);
    expect(features.syllablesPerSecond).toBeGreaterThan(1);
    expect(features.analysedSeconds).toBeCloseTo(3.713, 2);
  });

  it('finds no pitch in silence', () => {
    expect(analyseVoice(new Float32Array(16000), 8000)).toEqual({ pitchHz: null, syllablesPerSecond: null, analysedSeconds: 2 });
  });
});

function findBytes(haystack: Uint8Array, needle: number[]): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i += 1) {
    for (let j = 0; j < needle.length; j += 1) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
