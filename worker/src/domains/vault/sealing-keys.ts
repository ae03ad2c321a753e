import type { VaultSealingKeys } from '../../contracts/vault';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { lookupPublicKey } from '../e2ee/key-bundles';

export const OWNER_HAS_NO_KEYS = 'You have no encryption keys yet: sign in to the app once (it makes them), then seal the file for yourself and the recipient';
export const RECIPIENT_HAS_NO_KEYS =
  'This user has no encryption keys (or does not exist): they must sign in to the app once before a file can be sealed for them';

/**
 * GET /api/vault/sealing-keys: what a client needs to seal a vault file (docs/security/e2ee.md "Vault files
 * from an API client"): the owner's public key and the recipient's, each with the user id that is its `kid`.
 * An API key with `create:vault` reads them here, because the key bundles (/api/keys) are never a key's to read.
 */
export async function getSealingKeys(ctx: ServiceContext, ownerId: string, recipientId: string): Promise<VaultSealingKeys> {
  const [owner, recipient] = await Promise.all([lookupPublicKey(ctx, ownerId), lookupPublicKey(ctx, recipientId)]);
  if (!owner.public_key) throw new AppError('CONFLICT', OWNER_HAS_NO_KEYS);
  if (!recipient.public_key) throw new AppError('NOT_FOUND', RECIPIENT_HAS_NO_KEYS);
  return { owner: { user_id: owner.user_id, public_key: owner.public_key }, recipient: { user_id: recipient.user_id, public_key: recipient.public_key } };
}
