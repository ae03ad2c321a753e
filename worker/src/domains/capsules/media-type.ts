import { measureAudio } from '../voice/audio-duration';

/**
 * What an audio or video item's bytes are, read from the bytes (never the client's type): audio as the
 * voice samples are (WebM, Ogg, WAV, with the duration measured), video as WebM with a video track or
 * MP4 (ISO BMFF, `ftyp` box). The video's length is not measured: players read it.
 */
export type SniffedMedia =
  | { ok: true; type: 'audio'; contentType: string; durationMs: number }
  | { ok: true; type: 'video'; contentType: 'video/webm' | 'video/mp4'; durationMs: null }
  | { ok: false };

const EBML = [0x1a, 0x45, 0xdf, 0xa3];
const startsWith = (b: Uint8Array, magic: number[], at = 0) => magic.every((m, i) => b[at + i] === m);
const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));

/**
 * A WebM whose Tracks hold a video track: a TrackType element (ID 0x83, one-byte size 0x81) of value 1
 * within the header (the first 64 KiB, where MediaRecorder and ffmpeg write Tracks).
 */
function webmHasVideo(b: Uint8Array): boolean {
  const end = Math.min(b.length - 2, 64 * 1024);
  for (let i = 0; i < end; i += 1) if (b[i] === 0x83 && b[i + 1] === 0x81 && b[i + 2] === 0x01) return true;
  return false;
}

export function sniffMedia(bytes: Uint8Array, wanted: 'audio' | 'video'): SniffedMedia {
  if (wanted === 'video') {
    if (bytes.length >= 12 && ascii(bytes, 4, 4) === 'ftyp') return { ok: true, type: 'video', contentType: 'video/mp4', durationMs: null };
    if (startsWith(bytes, EBML) && webmHasVideo(bytes)) return { ok: true, type: 'video', contentType: 'video/webm', durationMs: null };
    return { ok: false };
  }
  if (startsWith(bytes, EBML) && webmHasVideo(bytes)) return { ok: false };
  const measured = measureAudio(bytes);
  return measured.ok ? { ok: true, type: 'audio', contentType: measured.type, durationMs: measured.durationMs } : { ok: false };
}
