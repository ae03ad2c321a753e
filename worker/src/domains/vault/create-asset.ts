import type { User } from '@afterword/db/schema';
import { parseEnvelope } from '../../contracts/e2ee';
import { cleanFileName } from '../../contracts/attachments';
import { VAULT_ERRORS, type TVaultCreateFields, type VaultAssetView } from '../../contracts/vault';
import type { ServiceContext } from '../../env';
import { bodyFieldError } from '../../lib/errors';
import { checkFileSize, type UploadedFile } from '../attachments/upload-attachment';
import { assertStorageFits, quotaExceeded, storageLimitBytes, storageUsedBytes, storageUsedSql, VAULT_KEY_PREFIX } from '../storage/storage-meter';
import { consentWithdrawn, requireConsent } from '../legal/consent-state';

export const vaultKey = (assetId: string) => `${VAULT_KEY_PREFIX}${assetId}`;

/** 403 with the upgrade hint: a vault file past the plan's storage (docs/decisions/vault.md). */

/** The envelope must be a v1 envelope that opens for its owner: a file nobody can open is refused. */
function checkEnvelope(envelope: string, ownerId: string) {
  const parsed = parseEnvelope(envelope);
  if (!parsed.ok) throw bodyFieldError('envelope', parsed.error.replace('content_encrypted', 'envelope'), 'envelope');
  if (!parsed.envelope.recipients.some((w) => w.kid.toLowerCase() === ownerId)) throw bodyFieldError('envelope', VAULT_ERRORS.noOwnerWrap, 'envelope_owner');
}

/**
 * POST /api/vault/create: stores a browser-encrypted file. The ciphertext goes to R2 first; the row is
 * inserted only while the file still fits the owner's plan — one conditional statement, so two uploads
 * at once cannot both slip under the quota. When the row is not written the object is deleted again: a
 * refused or failed upload leaves nothing behind.
 */
export async function createVaultAsset(
  ctx: ServiceContext,
  owner: Pick<User, 'id' | 'plan'>,
  fields: TVaultCreateFields,
  file: UploadedFile,
): Promise<VaultAssetView> {
  // Vault items are messages under the hood (released by the same engine): the messages consent covers them.
  await requireConsent(ctx, owner.id, 'messages', consentWithdrawn('messages', 'no new vault files are stored'));
  const size = file.bytes.byteLength;
  checkFileSize(size);
  checkEnvelope(fields.envelope, owner.id);
  await assertStorageFits(ctx, owner, size);
  const limit = storageLimitBytes(owner.plan);

  const id = crypto.randomUUID();
  const key = vaultKey(id);
  const name = fields.name ?? (file.fileName && file.fileName !== 'blob' ? cleanFileName(file.fileName) : 'file');
  const now = ctx.now();
  await ctx.env.BLOBS.put(key, file.bytes, { httpMetadata: { contentType: 'application/octet-stream' }, customMetadata: { owner: owner.id, vault: id } });
  let written: number;
  try {
    const result = await ctx.env.DB.prepare(
      `INSERT INTO vault_assets (id, owner_id, r2_key, iv, envelope, name, size, legal_note, consent_at, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9 WHERE ${storageUsedSql('?2')} + ?7 <= ?10`,
    )
      .bind(id, owner.id, key, fields.iv, fields.envelope, name, size, fields.legal_note, now.getTime(), limit)
      .run();
    written = result.meta.changes;
  } catch (err) {
    await ctx.env.BLOBS.delete(key);
    throw err;
  }
  if (written !== 1) {
    await ctx.env.BLOBS.delete(key);
    throw quotaExceeded(owner.plan, await storageUsedBytes(ctx, owner.id), size);
  }
  return { asset_id: id, size, name, iv: fields.iv, legal_note: fields.legal_note, assigned: false, created_at: now.toISOString() };
}
