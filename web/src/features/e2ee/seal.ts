/*
 * Seals a new E2EE message in the browser (docs/security/e2ee.md §8–11): the recording first (its IV
 * goes into the payload), then the payload with the text and every attachment's key, for the recipient
 * and the sender. What leaves the browser is only the envelope and the sealed audio.
 */
import type { TSealedPayload } from '@afterword/worker/contracts/e2ee';
import {
  attachmentPayloadEntry,
  bytesToBase64,
  bytesToBase64url,
  generateContentKey,
  sealAudio,
  sealMessage,
  type EncryptedFile,
  type Reader,
} from '../../crypto';

export interface SealInput {
  text: string;
  recording?: { bytes: Uint8Array; type: string } | null;
  attachments?: { file: EncryptedFile; name: string; type: string; size: number }[];
  readers: Reader[];
}

export interface SealedMessage {
  /** The envelope as JSON: the message's content_encrypted. */
  contentEncrypted: string;
  /** Standard base64 of the sealed audio, when there is a recording. */
  audioBase64?: string;
}

export async function sealNewMessage({ text, recording, attachments = [], readers }: SealInput): Promise<SealedMessage> {
  const contentKey = await generateContentKey();
  const payload: TSealedPayload = { text };
  let audioBase64: string | undefined;
  if (recording) {
    const sealed = await sealAudio(contentKey, recording.bytes);
    payload.audio = { iv: bytesToBase64url(sealed.iv), type: recording.type || 'audio/webm' };
    audioBase64 = bytesToBase64(sealed.ciphertext);
  }
  if (attachments.length) payload.attachments = attachments.map((a) => attachmentPayloadEntry(a.file, { name: a.name, type: a.type, size: a.size }));
  const { envelope } = await sealMessage({ payload, contentKey, readers });
  return { contentEncrypted: JSON.stringify(envelope), ...(audioBase64 ? { audioBase64 } : {}) };
}

/** Any base64 / base64url spelling of bytes → canonical base64url (to match an upload's IV to its payload entry). */
export function canonicalB64u(value: string): string {
  return value.trim().replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}
