import { AUDIO_MAX_BYTES, SEALED_AUDIO_MAX_BYTES } from '../../contracts/messages';
import { fromBase64 } from '../../lib/encoding';
import { AppError } from '../../lib/errors';

const field = (msg: string, type: string) => new AppError('UNPROCESSABLE', [{ loc: ['body', 'audio_base64'], msg, type }]);

/** The bytes of `audio_base64` (a data: URL prefix, as FileReader gives browsers, is accepted). */
function decodeBase64Audio(audioBase64: string, maxBytes: number, tooLarge: string): Uint8Array {
  const b64 = audioBase64.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  // Unpadded base64 is accepted too (encoders differ): pad it for the strict decoder.
  const bytes = b64.includes('=') ? fromBase64(b64) : fromBase64(b64.padEnd(Math.ceil(b64.length / 4) * 4, '='));
  if (!bytes) throw field('audio_base64 is not valid base64', 'base64');
  if (bytes.length === 0) throw field('audio is empty', 'audio_empty');
  if (bytes.length > maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', tooLarge);
  return bytes;
}

/**
 * Decodes `audio_base64` and checks what it is by its first bytes, not by what the client says:
 * WebM (an EBML header, 1A 45 DF A3) or Ogg ("OggS"). Returns the bytes and their media type.
 */
export function decodeAudio(audioBase64: string): { bytes: Uint8Array; type: 'audio/webm' | 'audio/ogg' } {
  const bytes = decodeBase64Audio(audioBase64, AUDIO_MAX_BYTES, 'audio must be at most 10 MB');
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return { bytes, type: 'audio/webm' };
  if (bytes[0] === 0x4f && bytes[1] === 0x67 && bytes[2] === 0x67 && bytes[3] === 0x53) return { bytes, type: 'audio/ogg' };
  throw field('audio must be audio/webm or audio/ogg', 'audio_type');
}

/**
 * The audio of an end-to-end encrypted message is AES-GCM ciphertext (sealed in the browser with the
 * message's content key): its bytes say nothing, so only its size is checked — at least the 16-byte
 * tag, at most 10 MB of audio plus the tag.
 */
export function decodeSealedAudio(audioBase64: string): { bytes: Uint8Array; type: 'application/octet-stream' } {
  const bytes = decodeBase64Audio(audioBase64, SEALED_AUDIO_MAX_BYTES, 'audio must be at most 10 MB (plus the 16-byte encryption tag)');
  if (bytes.length < 16) throw field('sealed audio must be at least 16 bytes (AES-GCM ciphertext with its tag)', 'audio_sealed');
  return { bytes, type: 'application/octet-stream' };
}

export const audioKey = (messageId: string) => `messages/${messageId}/audio`;
