import { inArray } from 'drizzle-orm';
import { schema } from '@afterword/db';
import type { TPublicKeyJwk } from '../../contracts/e2ee';
import type { VaultSealingKeys } from '../../contracts/vault';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';

export const OWNER_HAS_NO_KEYS = 'You have no encryption keys yet: sign in to the app once (it makes them), then seal the file for yourself and the recipient';
export const RECIPIENT_HAS_NO_KEYS =
  'This user has no encryption keys (or does not exist): they must sign in to the app once before a file can be sealed for them';

/**
 * GET /api/vault/sealing-keys: what a client needs to seal a vault file (docs/security/e2ee.md "Vault files
 * from an API client"): the owner's public key and the recipient's, each with the user id that is its `kid`.
 * An API key with `create:vault` reads them here, because the key bundles (/api/keys) are never a key's to read.
 */
export async function getSealingKeys(ctx: ServiceContext, ownerId: string, recipientId: string): Promise<VaultSealingKeys> {
  const rows = await ctx.db
    .select({ user_id: schema.userKeys.user_id, public_key: schema.userKeys.public_key })
    .from(schema.userKeys)
    .where(inArray(schema.userKeys.user_id, [ownerId, recipientId]));
  const keyOf = (id: string) => rows.find((r) => r.user_id === id)?.public_key as TPublicKeyJwk | undefined;
  const ownerKey = keyOf(ownerId);
  if (!ownerKey) throw new AppError('CONFLICT', OWNER_HAS_NO_KEYS);
  const recipientKey = keyOf(recipientId);
  if (!recipientKey) throw new AppError('NOT_FOUND', RECIPIENT_HAS_NO_KEYS);
  return { owner: { user_id: ownerId, public_key: ownerKey }, recipient: { user_id: recipientId, public_key: recipientKey } };
}
