import { AUDIO_MAX_BYTES } from '../../contracts/messages';
import { AppError } from '../../lib/errors';

const field = (msg: string, type: string) => new AppError('UNPROCESSABLE', [{ loc: ['body', 'audio_base64'], msg, type }]);

/**
 * Decodes `audio_base64` and checks what it is by its first bytes, not by what the client says:
 * WebM (an EBML header, 1A 45 DF A3) or Ogg ("OggS"). Returns the bytes and their media type.
 */
export function decodeAudio(audioBase64: string): { bytes: Uint8Array; type: 'audio/webm' | 'audio/ogg' } {
  // A data: URL prefix is what FileReader gives browsers; accept it.
  const b64 = audioBase64.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 === 1) throw field('audio_base64 is not valid base64', 'base64');
  let binary: string;
  try {
    binary = atob(b64);
  } catch {
    throw field('audio_base64 is not valid base64', 'base64');
  }
  if (binary.length === 0) throw field('audio is empty', 'audio_empty');
  if (binary.length > AUDIO_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', 'audio must be at most 10 MB');
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return { bytes, type: 'audio/webm' };
  if (bytes[0] === 0x4f && bytes[1] === 0x67 && bytes[2] === 0x67 && bytes[3] === 0x53) return { bytes, type: 'audio/ogg' };
  throw field('audio must be audio/webm or audio/ogg', 'audio_type');
}

export const audioKey = (messageId: string) => `messages/${messageId}/audio`;
