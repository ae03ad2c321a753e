/**
 * What an uploaded voice sample is and how long it lasts, read from its bytes alone (never a
 * client-sent type or duration). Each format is measured by its content, not by a header field that a
 * writer may leave out or get wrong:
 * - WAV: the PCM bytes actually present in the `data` chunk (a streaming writer's 0xFFFFFFFF or a size
 *   past the end of the file counts only what is there) over the format's byte rate;
 * - Ogg (Opus, Vorbis): the last page's granule position of the audio stream, over 48 kHz for Opus (less
 *   the pre-skip of its OpusHead) or the Vorbis identification header's rate;
 * - WebM / Matroska: the end of the last block (Cluster Timecode + SimpleBlock/Block timecode, plus that
 *   block's own length, read from its Opus TOC byte or else the gap between the last two blocks), in the
 *   Segment's TimecodeScale. MediaRecorder leaves the Segment Info Duration out; when a file has one it
 *   is ignored too, so a file that lies in its header is still measured by what it holds.
 * Pure functions, no I/O: they run in workerd and in tests alike.
 */

export type AudioType = 'audio/wav' | 'audio/ogg' | 'audio/webm';

export type Measured = { ok: true; type: AudioType; durationMs: number; codec: string } | { ok: false; reason: string };

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));

/** The container by its magic bytes, or null when it is none of the accepted ones. */
export function sniffAudio(b: Uint8Array): AudioType | null {
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WAVE') return 'audio/wav';
  if (b.length >= 4 && ascii(b, 0, 4) === 'OggS') return 'audio/ogg';
  if (b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return 'audio/webm';
  return null;
}

/** Sniffs and measures; `ok: false` with a sentence when the bytes are not measurable audio. */
export function measureAudio(bytes: Uint8Array): Measured {
  const type = sniffAudio(bytes);
  if (!type) return { ok: false, reason: 'not WAV, Ogg or WebM audio' };
  try {
    const result = type === 'audio/wav' ? measureWav(bytes) : type === 'audio/ogg' ? measureOgg(bytes) : measureWebm(bytes);
    if ('reason' in result) return { ok: false, reason: result.reason };
    if (!Number.isFinite(result.durationMs) || result.durationMs <= 0) return { ok: false, reason: 'the file holds no audio' };
    return { ok: true, type, durationMs: Math.round(result.durationMs), codec: result.codec };
  } catch {
    // A parser reading past the end of a truncated or hostile file: not measurable, never a 500.
    return { ok: false, reason: 'the file is damaged or truncated' };
  }
}

type Reading = { durationMs: number; codec: string } | { reason: string };

// ---------------------------------------------------------------------------------------------- WAV

export interface WavInfo {
  format: number;
  channels: number;
  sampleRate: number;
  byteRate: number;
  blockAlign: number;
  bitsPerSample: number;
  /** Where the PCM bytes start and how many are really in the file. */
  dataOffset: number;
  dataBytes: number;
  /** The `fact` chunk's sample count (compressed formats), if any. */
  factSamples: number | null;
}

/** The fmt and data chunks of a RIFF/WAVE file, or a reason. */
export function readWav(b: Uint8Array): WavInfo | { reason: string } {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataBytes' | 'factSamples'> | null = null;
  let factSamples: number | null = null;
  let at = 12;
  while (at + 8 <= b.length) {
    const id = ascii(b, at, 4);
    const size = v.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ' && body + 16 <= b.length) {
      const format = v.getUint16(body, true);
      fmt = {
        // WAVE_FORMAT_EXTENSIBLE carries the real format in its SubFormat GUID's first two bytes.
        format: format === 0xfffe && size >= 40 && body + 26 <= b.length ? v.getUint16(body + 24, true) : format,
        channels: v.getUint16(body + 2, true),
        sampleRate: v.getUint32(body + 4, true),
        byteRate: v.getUint32(body + 8, true),
        blockAlign: v.getUint16(body + 12, true),
        bitsPerSample: v.getUint16(body + 14, true),
      };
    } else if (id === 'fact' && body + 4 <= b.length) {
      factSamples = v.getUint32(body, true);
    } else if (id === 'data') {
      if (!fmt) return { reason: 'the WAV data chunk comes before its fmt chunk' };
      // The bytes that are there, whatever the header claims.
      const dataBytes = Math.min(size, b.length - body);
      return { ...fmt, dataOffset: body, dataBytes, factSamples };
    }
    at = body + size + (size % 2); // chunks are word-aligned
  }
  return { reason: fmt ? 'the WAV file has no data chunk' : 'the WAV file has no fmt chunk' };
}

function measureWav(b: Uint8Array): Reading {
  const wav = readWav(b);
  if ('reason' in wav) return wav;
  if (wav.sampleRate === 0 || wav.channels === 0) return { reason: 'the WAV header has no sample rate or channels' };
  const pcm = wav.format === 1 || wav.format === 3;
  if (pcm && wav.blockAlign > 0) {
    const frames = Math.floor(wav.dataBytes / wav.blockAlign);
    return { durationMs: (frames / wav.sampleRate) * 1000, codec: wav.format === 1 ? `pcm_s${wav.bitsPerSample}` : 'pcm_float' };
  }
  if (wav.factSamples != null) return { durationMs: (wav.factSamples / wav.sampleRate) * 1000, codec: `wav_format_${wav.format}` };
  if (wav.byteRate > 0) return { durationMs: (wav.dataBytes / wav.byteRate) * 1000, codec: `wav_format_${wav.format}` };
  return { reason: 'the WAV header has no byte rate' };
}

// ---------------------------------------------------------------------------------------------- Ogg

interface OggPage {
  granule: bigint;
  serial: number;
  bos: boolean;
  /** The page's payload (its packets' bytes, concatenated). */
  body: Uint8Array;
}

/** Every complete page, walked header to header (never by searching for "OggS" inside payloads). */
function* oggPages(b: Uint8Array): Generator<OggPage> {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let at = 0;
  while (at + 27 <= b.length && ascii(b, at, 4) === 'OggS') {
    const segments = b[at + 26]!;
    if (at + 27 + segments > b.length) return;
    let bodyLength = 0;
    for (let i = 0; i < segments; i += 1) bodyLength += b[at + 27 + i]!;
    const bodyStart = at + 27 + segments;
    if (bodyStart + bodyLength > b.length) return; // a truncated last page counts for nothing
    yield {
      granule: v.getBigInt64(at + 6, true),
      serial: v.getUint32(at + 14, true),
      bos: (b[at + 5]! & 0x02) !== 0,
      body: b.subarray(bodyStart, bodyStart + bodyLength),
    };
    at = bodyStart + bodyLength;
  }
}

function measureOgg(b: Uint8Array): Reading {
  let stream: { serial: number; codec: 'opus' | 'vorbis'; rate: number; preSkip: number } | null = null;
  let lastGranule = -1n;
  for (const page of oggPages(b)) {
    if (!stream && page.bos) {
      const head = page.body;
      if (head.length >= 19 && ascii(head, 0, 8) === 'OpusHead') {
        stream = { serial: page.serial, codec: 'opus', rate: 48000, preSkip: head[10]! | (head[11]! << 8) };
      } else if (head.length >= 16 && head[0] === 1 && ascii(head, 1, 6) === 'vorbis') {
        const rate = new DataView(head.buffer, head.byteOffset + 12, 4).getUint32(0, true);
        stream = { serial: page.serial, codec: 'vorbis', rate, preSkip: 0 };
      }
      continue;
    }
    // -1 marks a page on which no packet ends.
    if (stream && page.serial === stream.serial && page.granule >= 0n) lastGranule = page.granule;
  }
  if (!stream) return { reason: 'the Ogg file has no Opus or Vorbis stream' };
  if (stream.rate === 0) return { reason: 'the Vorbis header has no sample rate' };
  if (lastGranule < 0n) return { reason: 'the Ogg stream holds no audio' };
  const samples = Number(lastGranule) - stream.preSkip;
  return { durationMs: (samples / stream.rate) * 1000, codec: stream.codec };
}

// --------------------------------------------------------------------------------------------- WebM

const ID = {
  EBML: 0x1a45dfa3,
  DocType: 0x4282,
  Segment: 0x18538067,
  Info: 0x1549a966,
  TimecodeScale: 0x2ad7b1,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackType: 0x83,
  CodecID: 0x86,
  CodecDelay: 0x56aa,
  Cluster: 0x1f43b675,
  Timecode: 0xe7,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
  BlockDuration: 0x9b,
} as const;

/** Masters whose children are read in place (so an unknown size, as live writers leave, is no obstacle). */
const DESCEND = new Set<number>([ID.EBML, ID.Segment, ID.Info, ID.Tracks, ID.TrackEntry, ID.Cluster, ID.BlockGroup]);

/** An EBML variable-length integer at `at`: its value (marker kept for IDs) and length; null past the end. */
function vint(b: Uint8Array, at: number, keepMarker: boolean): { value: number; length: number; unknown: boolean } | null {
  const first = b[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23; // 1..8
  if (at + length > b.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i += 1) {
    value = value * 256 + b[at + i]!;
    if (b[at + i] !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

const uint = (b: Uint8Array, at: number, n: number) => {
  let value = 0;
  for (let i = 0; i < n; i += 1) value = value * 256 + b[at + i]!;
  return value;
};

/** Opus packet length in ms from its TOC byte (RFC 6716 section 3.1), or null when not readable. */
export function opusPacketMs(packet: Uint8Array): number | null {
  const toc = packet[0];
  if (toc === undefined) return null;
  const config = toc >> 3;
  const frameMs = config < 12 ? [10, 20, 40, 60][config % 4]! : config < 16 ? [10, 20][config % 2]! : [2.5, 5, 10, 20][config % 4]!;
  const code = toc & 3;
  const frames = code === 0 ? 1 : code < 3 ? 2 : packet[1] === undefined ? null : packet[1] & 0x3f;
  return frames == null ? null : frames * frameMs;
}

interface Track {
  number: number;
  type: number;
  codec: string;
}

function measureWebm(b: Uint8Array): Reading {
  let docType = '';
  let scaleNs = 1_000_000;
  let codecDelayNs = 0;
  const tracks: Track[] = [];
  let track: Partial<Track> | null = null;
  let clusterTime = 0;
  let first: number | null = null;
  let last: { time: number; durationMs: number | null } | null = null;
  let previousTime: number | null = null;
  let gap: number | null = null;
  let pendingBlockDuration: number | null = null;
  let lastFromGroup = false;
  let audio: Track | undefined;

  const block = (at: number, end: number, explicitDuration: number | null) => {
    const trackNumber = vint(b, at, false);
    if (!trackNumber || at + trackNumber.length + 3 > end) return;
    audio ??= tracks.find((t) => t.type === 2) ?? tracks[0];
    if (audio && trackNumber.value !== audio.number) return;
    const header = at + trackNumber.length;
    const relative = ((b[header]! << 24) >> 16) | b[header + 1]!; // signed 16-bit
    const flags = b[header + 2]!;
    const time = clusterTime + relative;
    let durationMs: number | null = explicitDuration != null ? (explicitDuration * scaleNs) / 1e6 : null;
    if (durationMs == null && (flags & 0x06) === 0 && audio?.codec === 'A_OPUS') durationMs = opusPacketMs(b.subarray(header + 3, end));
    if (previousTime != null && time > previousTime) gap = time - previousTime;
    previousTime = time;
    first = first == null ? time : Math.min(first, time);
    if (!last || time >= last.time) {
      last = { time, durationMs };
      lastFromGroup = explicitDuration == null && pendingGroup;
    } else lastFromGroup = false;
  };
  let pendingGroup = false;

  let at = 0;
  while (at < b.length) {
    const id = vint(b, at, true);
    if (!id) break;
    const size = vint(b, at + id.length, false);
    if (!size) break;
    const body = at + id.length + size.length;
    if (DESCEND.has(id.value)) {
      if (id.value === ID.TrackEntry) {
        if (track?.number != null) tracks.push({ number: track.number, type: track.type ?? 0, codec: track.codec ?? '' });
        track = {};
      }
      if (id.value === ID.Cluster && track) {
        if (track.number != null) tracks.push({ number: track.number, type: track.type ?? 0, codec: track.codec ?? '' });
        track = null;
      }
      at = body;
      continue;
    }
    if (size.unknown) break; // an unknown-size element we cannot step over
    const end = body + size.value;
    if (end > b.length) {
      // A block cut off at the end of a recording counts for nothing; anything else cut off ends the walk.
      break;
    }
    switch (id.value) {
      case ID.DocType:
        docType = ascii(b, body, size.value).replace(/\0+$/, '');
        break;
      case ID.TimecodeScale:
        scaleNs = uint(b, body, size.value) || 1_000_000;
        break;
      case ID.TrackNumber:
        if (track) track.number = uint(b, body, size.value);
        break;
      case ID.TrackType:
        if (track) track.type = uint(b, body, size.value);
        break;
      case ID.CodecID:
        if (track) track.codec = ascii(b, body, size.value).replace(/\0+$/, '');
        break;
      case ID.CodecDelay:
        codecDelayNs = uint(b, body, size.value);
        break;
      case ID.Timecode:
        clusterTime = uint(b, body, size.value);
        break;
      case ID.SimpleBlock:
        block(body, end, null);
        break;
      case ID.BlockDuration: {
        // Muxers write it after the Block as often as before it.
        const units = uint(b, body, size.value);
        if (lastFromGroup && last) (last as { durationMs: number | null }).durationMs = (units * scaleNs) / 1e6;
        else pendingBlockDuration = units;
        lastFromGroup = false;
        break;
      }
      case ID.Block:
        pendingGroup = true;
        block(body, end, pendingBlockDuration);
        pendingGroup = false;
        pendingBlockDuration = null;
        break;
    }
    at = end;
  }
  if (docType !== 'webm' && docType !== 'matroska') return { reason: 'the EBML file is not WebM or Matroska' };
  if (track?.number != null) tracks.push({ number: track.number, type: track.type ?? 0, codec: track.codec ?? '' });
  const found = (audio as Track | undefined) ?? tracks.find((t) => t.type === 2);
  if (!found) return { reason: 'the WebM file has no audio track' };
  const end = last as { time: number; durationMs: number | null } | null;
  if (end == null || first == null) return { reason: 'the WebM file holds no audio blocks' };
  const lastMs = end.durationMs ?? (gap != null ? (gap * scaleNs) / 1e6 : 0);
  const spanMs = ((end.time - first) * scaleNs) / 1e6 + lastMs - codecDelayNs / 1e6;
  return { durationMs: spanMs, codec: found.codec.replace(/^A_/, '').toLowerCase() };
}
