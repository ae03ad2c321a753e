/*
 * A half-written message kept on this device (docs/decisions/drafts.md): the words, the recipient, the
 * method, the time and the rules (not the encryption tick: it follows the keys again when the form opens), so a reload or a click elsewhere loses nothing. Every draft is sealed
 * with AES-GCM under a device key that is a non-extractable CryptoKey kept, as the object it is, in
 * IndexedDB (as "stay unlocked" keeps its key: e2ee/device-unlock.ts): the words of a message that will
 * be end-to-end encrypted are never at rest in clear text, and a copy of the disk alone opens nothing.
 * A recording and chosen files are not kept (the page says so). One draft per account per browser; it is
 * dropped when the message is created or the person discards it, and on sign-out.
 */
import { aesGcmDecrypt, aesGcmEncrypt, utf8Decode, utf8Encode } from '../../crypto';
import { type IdbRecord, idbRecord } from '../../lib/idb-record';
import type { RuleDraft } from './rules-editor';

/** What a draft holds: the form's fields as typed. */
export interface MessageDraftFields {
  content: string;
  recipient: string;
  method: string;
  deliverAt: string;
  rules: Omit<RuleDraft, 'key'>[];
}

export interface MessageDraft extends MessageDraftFields {
  /** When it was last saved (epoch ms). */
  savedAt: number;
}

/** One sealed record per browser profile. */
export interface DraftRecord {
  userId: string;
  deviceKey: CryptoKey;
  iv: Uint8Array;
  ct: Uint8Array;
}

/** Where the record lives: IndexedDB in the app, memory in unit tests. */
export type DraftBackend = IdbRecord<DraftRecord>;

export interface DraftStore {
  /** The draft of `userId`, or null (none, another account's, or one that does not open: then it is removed). */
  load(userId: string): Promise<MessageDraft | null>;
  save(userId: string, fields: MessageDraftFields): Promise<void>;
  drop(): Promise<void>;
}

/** A form with nothing typed (what "Discard draft" leaves). */
export const EMPTY_DRAFT_FIELDS: MessageDraftFields = { content: '', recipient: '', method: 'email', deliverAt: '', rules: [] };

/** True when the fields hold nothing worth keeping. */
export const isEmptyDraft = (f: MessageDraftFields) => !f.content.trim() && !f.recipient.trim() && !f.deliverAt && f.rules.length === 0;

const aad = (userId: string) => utf8Encode(`afterword/message-draft/v1/${userId.toLowerCase()}`);

export function createDraftStore(backend: DraftBackend, now: () => number = Date.now): DraftStore {
  return {
    async load(userId) {
      const record = await backend.read().catch(() => null);
      if (!record) return null;
      if (record.userId !== userId.toLowerCase()) return null;
      try {
        const plain = await aesGcmDecrypt(record.deviceKey, record.iv, record.ct, aad(userId));
        return JSON.parse(utf8Decode(plain)) as MessageDraft;
      } catch {
        await backend.remove();
        return null;
      }
    },
    async save(userId, fields) {
      if (isEmptyDraft(fields)) {
        await backend.remove();
        return;
      }
      const existing = await backend.read().catch(() => null);
      // A new device key per account; the same one while the draft is rewritten.
      const deviceKey =
        existing && existing.userId === userId.toLowerCase()
          ? existing.deviceKey
          : await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
      const draft: MessageDraft = { ...fields, savedAt: now() };
      const { iv, ciphertext } = await aesGcmEncrypt(deviceKey, utf8Encode(JSON.stringify(draft)), aad(userId));
      await backend.write({ userId: userId.toLowerCase(), deviceKey, iv, ct: ciphertext });
    },
    drop: () => backend.remove(),
  };
}

/** The browser's IndexedDB. */
export const indexedDbDraftBackend: DraftBackend = idbRecord<DraftRecord>('afterword-drafts', 'message-draft', 'current');

/** The app's one draft store. */
export const messageDrafts = createDraftStore(indexedDbDraftBackend);
