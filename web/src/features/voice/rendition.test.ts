import { afterEach, describe, expect, it, vi } from 'vitest';
import { wavRendition } from './rendition';
import { uploadVoiceSample } from './voice-api';

/** An OfflineAudioContext whose decodeAudioData answers `channels` at 8 kHz, as a browser's does after resampling. */
function fakeAudio(channels: Float32Array[]) {
  const rates: number[] = [];
  class FakeOffline {
    constructor(_channels: number, _length: number, rate: number) {
      rates.push(rate);
    }
    async decodeAudioData() {
      return { length: channels[0]!.length, numberOfChannels: channels.length, getChannelData: (c: number) => channels[c]! };
    }
  }
  vi.stubGlobal('OfflineAudioContext', FakeOffline);
  return rates;
}
const webm = () => new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3])], { type: 'audio/webm' });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the WAV rendition of a WebM/Ogg sample, for the server to measure its pitch', () => {
  it('is decoded at 8 kHz, mixed to mono and written as a 16-bit WAV', async () => {
    const rates = fakeAudio([new Float32Array([0.5, -0.5, 1]), new Float32Array([0.5, 0.5, 1])]);
    const wav = new Uint8Array(await (await wavRendition(webm()))!.arrayBuffer());
    expect(rates).toEqual([8000]);
    const v = new DataView(wav.buffer);
    expect(String.fromCharCode(...wav.slice(0, 4), ...wav.slice(8, 12))).toBe('RIFFWAVE');
    expect([v.getUint16(22, true), v.getUint32(24, true), v.getUint16(34, true), v.getUint32(40, true)]).toEqual([1, 8000, 16, 6]);
    expect([v.getInt16(44, true), v.getInt16(46, true), v.getInt16(48, true)]).toEqual([16384, 0, 32767]);
  });

  it('keeps at most the first 120 s', async () => {
    fakeAudio([new Float32Array(130 * 8000)]);
    const wav = new Uint8Array(await (await wavRendition(webm()))!.arrayBuffer());
    expect(new DataView(wav.buffer).getUint32(40, true)).toBe(120 * 8000 * 2);
  });

  it('is not made for a WAV, nor where the browser cannot decode the file', async () => {
    fakeAudio([new Float32Array(8)]);
    expect(await wavRendition(new Blob([new TextEncoder().encode('RIFF....WAVE')]))).toBeNull();
    vi.stubGlobal('OfflineAudioContext', undefined);
    expect(await wavRendition(webm())).toBeNull();
  });

  it('goes up beside the recording; one the server refuses is dropped and the recording sent alone', async () => {
    const sent: FormData[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        const form = init.body as FormData;
        sent.push(form);
        if (form.has('analysis_file'))
          return new Response(JSON.stringify({ detail: [{ loc: ['body', 'analysis_file'], msg: 'analysis_file must be this recording decoded as a WAV' }] }), {
            status: 422,
          });
        return new Response(JSON.stringify({ id: 's1' }), { status: 201 });
      }),
    );
    const rendition = new Blob([new Uint8Array([1])], { type: 'audio/wav' });
    expect(await uploadVoiceSample(webm(), 'take.webm', 'Hello', async () => rendition)).toEqual({ id: 's1' });
    expect(sent.map((f) => [f.has('file'), f.has('analysis_file')])).toEqual([
      [true, true],
      [true, false],
    ]);
  });
});
