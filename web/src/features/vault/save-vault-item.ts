/*
 * Saving a vault item, from the form's draft to the assigned item: check the draft, fetch the keys,
 * encrypt the file and seal its key for the owner and the recipient (exactly as a message attachment,
 * so the recipient's Inbox opens it), upload the ciphertext, then assign it. What leaves the browser is
 * the ciphertext, its IV and the envelope: never the file or its key.
 */
import { formatBytes } from '@afterword/worker/contracts/attachments';
import { LEGAL_NOTE_MAX, VAULT_FILE_MAX_BYTES, type TVaultAssignInput, type VaultAssetView, type VaultItemView } from '@afterword/worker/contracts/vault';
import { encryptFile, type EncryptedFile, type Reader } from '../../crypto';
import { readApiError } from '../../lib/api-error';
import { readersFor, type KeysApi } from '../e2ee/keys-api';
import { sealNewMessage } from '../e2ee/seal';
import { conditionInput, type ConditionDraft } from './condition';
import { T } from './texts';
import type { VaultUpload } from './vault-api';

export interface VaultDeps {
  keys: Pick<KeysApi, 'whoami' | 'mine' | 'publicKeyOf'>;
  /** POST /api/vault/create; rejects with the server's error. */
  upload: (upload: VaultUpload) => Promise<Pick<VaultAssetView, 'asset_id'>>;
  /** trpc.vault.assign; rejects with the server's error. */
  assign: (input: TVaultAssignInput) => Promise<VaultItemView>;
}

export interface VaultDraft {
  file: File | null;
  recipient: string;
  condition: ConditionDraft;
  legalNote: string;
  consent: boolean;
}

export type VaultField = 'file' | 'recipient' | 'birthday' | 'everyYear' | 'exactAt' | 'legalNote' | 'consent';

export interface VaultErrors {
  fields: Partial<Record<VaultField, string>>;
  /** Problems that belong to no single field, shown above the button. */
  form: string[];
}

/** Why nothing (more) was saved, with the messages to show. */
export class VaultRefusal extends Error {
  constructor(readonly errors: VaultErrors) {
    super('refused');
  }
}

/**
 * A file uploaded whose assign failed. Retrying with the same file and recipient assigns it again
 * instead of storing a second copy (an unassigned upload still counts toward the owner's storage).
 */
export interface UploadedAsset {
  file: File;
  recipientId: string;
  legalNote: string;
  assetId: string;
}

const refuse = (fields: VaultErrors['fields'], form: string[] = []) => new VaultRefusal({ fields, form });

/** What the form can say before anything is fetched or sent. */
export function checkDraft(draft: VaultDraft, now = Date.now()): VaultErrors | null {
  const fields: VaultErrors['fields'] = {};
  if (!draft.file) fields.file = T.fileRequired;
  // The ciphertext is 16 bytes longer than the file (the AES-GCM tag).
  else if (draft.file.size + 16 > VAULT_FILE_MAX_BYTES) fields.file = T.fileTooLarge(formatBytes(VAULT_FILE_MAX_BYTES - 16));
  if (!draft.recipient.trim()) fields.recipient = T.recipientRequired;
  const condition = conditionInput(draft.condition, now);
  if (!condition.ok) fields[condition.field] = condition.message;
  if (draft.legalNote.length > LEGAL_NOTE_MAX) fields.legalNote = `A legal note can be at most ${LEGAL_NOTE_MAX.toLocaleString('en-US')} characters.`;
  if (!draft.consent) fields.consent = T.consentRequired;
  return Object.keys(fields).length ? { fields, form: [] } : null;
}

const SERVER_FIELDS: Record<string, VaultField> = {
  file: 'file',
  recipient_user_id: 'recipient',
  every_year: 'everyYear',
  legal_note: 'legalNote',
  consent: 'consent',
};

/** The server's 422 issues under their fields (condition_value under the condition shown); the rest above the button. */
export function placeServerErrors(error: unknown, conditionType: ConditionDraft['type'], fallback: string): VaultErrors {
  const { fieldIssues, detail } = readApiError(error);
  if (!fieldIssues) return { fields: {}, form: [detail ?? fallback] };
  const out: VaultErrors = { fields: {}, form: [] };
  for (const { path, msg } of fieldIssues) {
    const top = String(path[0] ?? '');
    const field = top === 'condition_value' ? (conditionType === 'recipient_birthday' ? 'birthday' : 'exactAt') : SERVER_FIELDS[top];
    if (field) out.fields[field] ??= msg;
    else out.form.push(msg);
  }
  return out;
}

/** The readers: the recipient and the owner. Refuses, under the right field, when either has no keys. */
async function readersOf(keys: VaultDeps['keys'], recipient: string): Promise<{ readers: Reader[]; recipientId: string }> {
  const [me, mine] = await Promise.all([keys.whoami(), keys.mine()]);
  if (!mine) throw refuse({}, [T.ownerNoKeys]);
  let to: Awaited<ReturnType<VaultDeps['keys']['publicKeyOf']>>;
  try {
    to = await keys.publicKeyOf(recipient.trim());
  } catch (error) {
    const issues = readApiError(error).fieldIssues;
    if (issues) throw refuse({ recipient: issues[0]!.msg });
    throw error;
  }
  if (!to) throw refuse({ recipient: T.recipientNoKeys });
  // Checked here, not only by assign: the server would refuse only after the file was uploaded.
  if (to.user_id.toLowerCase() === me.id.toLowerCase()) throw refuse({ recipient: T.recipientIsYou });
  return { readers: readersFor(to, { id: me.id, publicKey: mine.public_key }), recipientId: to.user_id.toLowerCase() };
}

/** Encrypts the file with its own key and seals that key as the payload's one attachment: `{text: '', attachments: [...]}`. */
export async function sealVaultFile(file: File, readers: Reader[]): Promise<{ encrypted: EncryptedFile; envelope: string }> {
  let encrypted: EncryptedFile;
  try {
    encrypted = await encryptFile(new Uint8Array(await file.arrayBuffer()));
  } catch {
    throw refuse({ file: T.fileUnreadable });
  }
  try {
    const name = file.name || 'file';
    const sealed = await sealNewMessage({
      text: '',
      attachments: [{ file: encrypted, name, type: file.type || 'application/octet-stream', size: file.size }],
      readers,
    });
    return { encrypted, envelope: sealed.contentEncrypted };
  } catch (error) {
    console.error('Sealing the vault file failed', error);
    throw refuse({}, [T.sealFailed]);
  }
}

interface SaveOptions {
  /** The upload of an earlier attempt whose assign failed, if any. */
  previous: UploadedAsset | null;
  /** Told as soon as the file is stored, before assign. */
  onUploaded: (asset: UploadedAsset | null) => void;
  now?: number;
}

/** Saves the draft; resolves with the assigned item or rejects with a VaultRefusal saying why. */
export async function saveVaultItem(deps: VaultDeps, draft: VaultDraft, { previous, onUploaded, now = Date.now() }: SaveOptions): Promise<VaultItemView> {
  const local = checkDraft(draft, now);
  if (local) throw new VaultRefusal(local);
  const file = draft.file!;
  const condition = conditionInput(draft.condition, now);
  if (!condition.ok) throw refuse({ [condition.field]: condition.message });
  const { ok: _ok, ...when } = condition;
  const fail = (fallback: string) => (error: unknown) => {
    throw error instanceof VaultRefusal ? error : new VaultRefusal(placeServerErrors(error, draft.condition.type, fallback));
  };

  let asset = previous;
  const recipient = draft.recipient.trim().toLowerCase();
  if (!asset || asset.file !== file || asset.recipientId !== recipient || asset.legalNote !== draft.legalNote) {
    onUploaded(null);
    asset = await (async () => {
      const { readers, recipientId } = await readersOf(deps.keys, draft.recipient);
      const { encrypted, envelope } = await sealVaultFile(file, readers);
      const stored = await deps.upload({
        ciphertext: encrypted.ciphertext,
        ivBase64: encrypted.ivBase64,
        envelope,
        name: file.name || 'file',
        legalNote: draft.legalNote,
      });
      return { file, recipientId, legalNote: draft.legalNote, assetId: stored.asset_id };
    })().catch(fail(T.saveFailed));
    onUploaded(asset);
  }
  const item = await deps.assign({ asset_id: asset.assetId, recipient_user_id: asset.recipientId, ...when }).catch(fail(T.saveFailed));
  onUploaded(null);
  return item;
}
