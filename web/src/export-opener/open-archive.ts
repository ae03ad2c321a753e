/*
 * Opens an export's end-to-end encrypted parts in the browser, with the web app's own crypto module
 * (web/src/crypto/): the private key from data/encryption_keys.json unsealed by the recovery key or
 * the password, then each message's envelope, and each .enc file by the key its envelope carries
 * (docs/security/e2ee.md). Which record a file belongs to follows the archive's paths
 * (worker/src/domains/legal/export/user-files.ts): attachments and vault files are named "<record id>-<name>.enc",
 * a message's recording "files/messages_{sent,received}/<message id>/recording.enc".
 */
import type { TSealedPayload } from '@afterword/worker/contracts/e2ee';
import { decryptFile, openAudio, openEnvelope, unwrapPrivateKey, type UnlockSecret } from '../crypto';
import { type ArchiveFiles, records } from './archive-files';

export interface OpenedMessage {
  id: string;
  direction: 'sent' | 'received';
  text: string;
}

export interface OpenedFile {
  /** Where the sealed file is in the archive. */
  path: string;
  /** The name and type it had before it was sealed. */
  name: string;
  type: string;
  bytes: Uint8Array<ArrayBuffer>;
}

export interface Unopened {
  what: string;
  reason: string;
}

export interface OpenedArchive {
  messages: OpenedMessage[];
  files: OpenedFile[];
  unopened: Unopened[];
}

/** The archive's keys were not among the picked files: nothing can be opened without them. */
export class MissingKeysError extends Error {
  override readonly name = 'MissingKeysError';
}

interface Opened {
  payload: TSealedPayload;
  contentKey: CryptoKey;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));
/** The upload form sends an IV in standard base64, the payload in base64url: compare them in one spelling. */
const ivSpelling = (iv: string): string => iv.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const AUDIO_EXTENSIONS: Record<string, string> = { 'audio/webm': '.webm', 'audio/ogg': '.ogg', 'audio/wav': '.wav', 'audio/mpeg': '.mp3', 'audio/mp4': '.m4a' };

export async function openArchive(files: ArchiveFiles, secret: UnlockSecret): Promise<OpenedArchive> {
  const [keys] = await records(files, 'encryption_keys');
  if (!keys) throw new MissingKeysError('data/encryption_keys.json is not among the chosen files: choose the whole export folder.');
  const kid = text(keys.user_id);
  const privateKey = await unwrapPrivateKey('password' in secret ? keys.password_wrap : keys.recovery_wrap, secret);
  const reader = { kid, privateKey };
  const unopened: Unopened[] = [];

  // Each message once, with its envelope opened: a message to oneself is both sent and received.
  const envelopes = new Map<string, Opened>();
  const messages: OpenedMessage[] = [];
  for (const direction of ['sent', 'received'] as const) {
    for (const row of await records(files, `messages_${direction}`)) {
      const id = text(row.id);
      if (!row.content_encrypted || envelopes.has(id)) continue;
      try {
        const opened = await openEnvelope(row.content_encrypted, reader);
        envelopes.set(id, opened);
        messages.push({ id, direction, text: opened.payload.text });
      } catch (err) {
        unopened.push({ what: `Message ${id}`, reason: reason(err) });
      }
    }
  }

  const attachments = await records(files, 'attachments');
  const vaultFiles = await records(files, 'vault_files');
  const byIdPrefix = (rows: Record<string, unknown>[], base: string) => rows.find((r) => base.startsWith(`${text(r.id)}-`));

  async function openFile(path: string, blob: Blob): Promise<OpenedFile> {
    const parts = path.split('/');
    const base = parts[parts.length - 1]!;
    const bytes = new Uint8Array(await blob.arrayBuffer());
    if (base === 'recording.enc') {
      const messageId = parts[parts.length - 2];
      if (!messageId) throw new Error('choose the export folder to open recordings: every one is called recording.enc');
      const message = envelopes.get(messageId);
      if (!message?.payload.audio) throw new Error('its message is not among the opened ones');
      const { type, iv } = message.payload.audio;
      return { path, name: `recording-${messageId}${AUDIO_EXTENSIONS[type] ?? ''}`, type, bytes: await openAudio(message.contentKey, iv, bytes) };
    }
    const attachment = byIdPrefix(attachments, base);
    const vaultFile = attachment ? undefined : byIdPrefix(vaultFiles, base);
    const record = attachment ?? vaultFile;
    if (!record) throw new Error('no record in the chosen files names this file');
    let payload: TSealedPayload;
    if (attachment) {
      const message = envelopes.get(text(attachment.message_id));
      if (!message) throw new Error('its message is not end-to-end encrypted or could not be opened: its key is not in the archive');
      payload = message.payload;
    } else {
      payload = (await openEnvelope(vaultFile!.envelope, reader)).payload;
    }
    const entry = payload.attachments?.find((a) => ivSpelling(a.iv) === ivSpelling(text(record.iv)));
    if (!entry) throw new Error('its envelope holds no key for this file');
    return { path, name: entry.name, type: entry.type, bytes: await decryptFile(entry.key, entry.iv, bytes) };
  }

  const opened: OpenedFile[] = [];
  for (const [path, blob] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    if (!path.endsWith('.enc')) continue;
    try {
      opened.push(await openFile(path, blob));
    } catch (err) {
      unopened.push({ what: path, reason: reason(err) });
    }
  }
  return { messages, files: opened, unopened };
}
