/*
 * The WAV rendition of a WebM/Ogg voice sample (docs/decisions/voice.md "Pitch from WebM and Ogg"): the Worker
 * has no Opus/Vorbis decoder (workerd forbids compiling WebAssembly at run time, which the decoders on npm
 * do), so the browser — which decodes both — decodes the recording with an OfflineAudioContext at 8 kHz, mixes
 * it to mono, keeps at most its first 120 s and sends it beside the recording as `analysis_file`. The server
 * measures pitch and rate on it, checks it has the recording's length, and keeps only the figures; the
 * recording's duration is still measured by the server from the recording itself.
 */
import { VOICE_ANALYSIS_MAX_SECONDS, VOICE_ANALYSIS_RATE } from '@afterword/worker/contracts/voice';
import { floatWav } from '@afterword/worker/contracts/wav';

/**
 * The rendition to send with `recording`, or null: a WAV is measured from its own bytes, and a browser
 * that cannot decode the file sends the recording alone (its seconds still count; its pitch is not measured).
 */
export async function wavRendition(recording: Blob): Promise<Blob | null> {
  const Offline = (globalThis as { OfflineAudioContext?: typeof OfflineAudioContext }).OfflineAudioContext;
  if (!Offline) return null;
  const bytes = await recording.arrayBuffer();
  const head = new Uint8Array(bytes, 0, Math.min(4, bytes.byteLength));
  if (String.fromCharCode(...head) === 'RIFF') return null;
  try {
    // decodeAudioData resamples to the context's rate.
    const decoded = await new Offline(1, 1, VOICE_ANALYSIS_RATE).decodeAudioData(bytes.slice(0));
    const frames = Math.min(decoded.length, VOICE_ANALYSIS_MAX_SECONDS * VOICE_ANALYSIS_RATE);
    const mono = new Float32Array(frames);
    for (let c = 0; c < decoded.numberOfChannels; c += 1) {
      const channel = decoded.getChannelData(c);
      for (let i = 0; i < frames; i += 1) mono[i]! += channel[i]! / decoded.numberOfChannels;
    }
    return new Blob([floatWav(mono, VOICE_ANALYSIS_RATE)], { type: 'audio/wav' });
  } catch (err) {
    console.error('Could not decode the recording for its pitch', err);
    return null;
  }
}
