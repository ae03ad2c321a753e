/*
 * The vault's call that tRPC does not carry: the multipart upload of the encrypted file. Only ciphertext,
 * its IV and the sealed envelope cross here; the file key never does.
 */
import type { VaultAssetView } from '@afterword/worker/contracts/vault';
import { restFetch } from '../../lib/rest';
import { multipartBody } from '../e2ee/files-api';

export interface VaultUpload {
  ciphertext: Uint8Array;
  /** Standard base64 of the 12-byte IV. */
  ivBase64: string;
  /** The v1 envelope (JSON) sealing the file key for the owner and the recipient. */
  envelope: string;
  name: string;
  legalNote: string;
}

/** POST /api/vault/create (multipart: file = the ciphertext, iv, envelope, consent, legal_note, name). */
export async function uploadVaultFile({ ciphertext, ivBase64, envelope, name, legalNote }: VaultUpload): Promise<VaultAssetView> {
  const fields: Record<string, string> = { iv: ivBase64, envelope, consent: 'true', name };
  if (legalNote.trim()) fields.legal_note = legalNote.trim();
  // The part's own filename says nothing about the file: the name field carries it.
  const { body, contentType } = multipartBody(fields, { field: 'file', filename: 'encrypted.bin', bytes: ciphertext });
  const res = await restFetch('/api/vault/create', { method: 'POST', headers: { 'Content-Type': contentType }, body: body as Uint8Array<ArrayBuffer> });
  return (await res.json()) as VaultAssetView;
}
