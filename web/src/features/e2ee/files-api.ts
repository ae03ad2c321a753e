/*
 * The binary calls tRPC does not carry: multipart upload of a ciphertext, and downloads of stored
 * ciphertext (attachments, E2EE audio). Only ciphertext ever crosses here; keys never do. The
 * endpoint GET /api/download/decrypted-file/{id}?key= is deliberately not used: it would hand the file
 * key to the server (docs/security/e2ee.md §11).
 */
import type { AttachmentView } from '@afterword/worker/contracts/attachments';
import { bytesToHex, randomBytes } from '../../crypto';
import { httpErrorFrom } from '../../lib/api-error';
import { authHeaders, restFetch } from '../../lib/rest';

export interface EncryptedUpload {
  messageId: string;
  ciphertext: Uint8Array;
  /** Standard base64 of the 12-byte IV (the upload's `iv` field). */
  ivBase64: string;
  name: string;
}

function containsBytes(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (haystack[i] !== needle[0]) continue;
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * A multipart/form-data body as plain bytes. A FormData with a Blob is sent by the browser from a blob
 * it does not expose to request inspection (DevTools, the browser tests' request log); built by hand,
 * every byte that leaves is visible, which is what the zero-knowledge test checks.
 */
export function multipartBody(
  fields: Record<string, string>,
  file: { field: string; filename: string; bytes: Uint8Array },
): { body: Uint8Array; contentType: string } {
  const enc = new TextEncoder();
  const quote = (v: string) => v.replace(/[\r\n"]/g, (c) => encodeURIComponent(c));
  for (;;) {
    const boundary = `----afterword${bytesToHex(randomBytes(16))}`;
    const parts: Uint8Array[] = [];
    for (const [k, v] of Object.entries(fields)) parts.push(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(k)}"\r\n\r\n${v}\r\n`));
    parts.push(
      enc.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.filename)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file.bytes,
      enc.encode(`\r\n--${boundary}--\r\n`),
    );
    const body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      body.set(p, at);
      at += p.length;
    }
    // A boundary that occurs inside a value would cut it: practically never with 128 random bits, but check.
    const clash = Object.values(fields).some((v) => v.includes(boundary)) || containsBytes(file.bytes, enc.encode(boundary));
    if (!clash) return { body, contentType: `multipart/form-data; boundary=${boundary}` };
  }
}

/** POST /api/upload/encrypted-file (multipart: file = the ciphertext, message_id, iv, name). */
export async function uploadEncryptedFile({ messageId, ciphertext, ivBase64, name }: EncryptedUpload): Promise<{ id: string }> {
  // The part's own filename says nothing about the file: the name field carries it.
  const { body, contentType } = multipartBody({ message_id: messageId, iv: ivBase64, name }, { field: 'file', filename: 'encrypted.bin', bytes: ciphertext });
  const res = await fetch('/api/upload/encrypted-file', {
    method: 'POST',
    headers: { ...authHeaders(), 'Content-Type': contentType },
    body: body as Uint8Array<ArrayBuffer>,
  });
  if (res.status !== 201) throw await httpErrorFrom(res);
  return (await res.json()) as { id: string };
}

async function getBytes(url: string, signal?: AbortSignal): Promise<Uint8Array> {
  const res = await restFetch(url, { signal });
  return new Uint8Array(await res.arrayBuffer());
}

/** GET /api/message/{id}/attachments: the message's uploads (ciphertext metadata only). */
export async function fetchMessageAttachments(messageId: string, signal?: AbortSignal): Promise<AttachmentView[]> {
  const res = await restFetch(`/api/message/${encodeURIComponent(messageId)}/attachments`, { signal });
  return (await res.json()) as AttachmentView[];
}

/** GET /api/attachments/{id}/ciphertext: the stored bytes, as uploaded. */
export const fetchAttachmentCiphertext = (id: string, signal?: AbortSignal) => getBytes(`/api/attachments/${encodeURIComponent(id)}/ciphertext`, signal);

/** GET /api/message/{id}/audio: for an E2EE message, the sealed audio. */
export const fetchMessageAudio = (id: string, signal?: AbortSignal) => getBytes(`/api/message/${encodeURIComponent(id)}/audio`, signal);

/** Hands decrypted bytes to the browser as a download with their original name. */
export function saveBytes(bytes: Uint8Array, name: string, type: string) {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: type || 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Long enough for the download to start; the plaintext does not stay reachable afterwards.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
