import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { and, eq } from 'drizzle-orm';
import { parseEnvelope } from '../../contracts/e2ee';
import { parseIsoInstant } from '../../contracts/messages';
import { VAULT_ERRORS, type TVaultAssign, type VaultItemView } from '../../contracts/vault';
import type { ServiceContext } from '../../env';
import { AppError, bodyFieldError } from '../../lib/errors';
import { consentWithdrawn, requireConsent } from '../legal/consent-state';
import { describeRule } from '../messages/release/describe';
import { loadEngineMessage } from '../messages/release/load-message';
import { syncReleaseTimer } from '../messages/release/release-timer';
import { nextWakeAt } from '../messages/release/schedule';
import { claimToken } from './claim-token';
import { ruleOf } from './condition';
import { getVaultItem, vaultAssetNotFound } from './read-vault';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/constraint-violation';

const alreadyGiven = () => new AppError('CONFLICT', 'This file is already given to someone: upload it again to give it to another person');

/**
 * POST /api/vault/assign: gives one of the owner's files to one recipient under a condition. In one D1
 * batch: the item, the release engine's message carrying the file as its attachment (the envelope is the
 * message's sealed content: it holds the file's key), and the message's first transition — so the item
 * is released, logged, delivered and shown in the recipient's Inbox exactly like a message.
 */
export async function assignVaultItem(ctx: ServiceContext, owner: Pick<User, 'id'>, input: TVaultAssign): Promise<VaultItemView> {
  await requireConsent(ctx, owner.id, 'messages', consentWithdrawn('messages', 'no vault file is given to anyone'));
  const [asset] = await ctx.db
    .select()
    .from(schema.vaultAssets)
    .where(and(eq(schema.vaultAssets.id, input.asset_id), eq(schema.vaultAssets.owner_id, owner.id)))
    .limit(1);
  if (!asset) throw vaultAssetNotFound();
  const now = ctx.now();
  if (input.condition_type === 'exact_date' && parseIsoInstant(input.condition_value!)!.getTime() <= now.getTime())
    throw bodyFieldError('condition_value', VAULT_ERRORS.pastDate, 'past_date');
  if (input.recipient_user_id === owner.id) throw bodyFieldError('recipient_user_id', VAULT_ERRORS.ownRecipient, 'own_recipient');
  const [recipient] = await ctx.db
    .select({ id: schema.users.id, keys: schema.userKeys.user_id })
    .from(schema.users)
    .leftJoin(schema.userKeys, eq(schema.userKeys.user_id, schema.users.id))
    .where(eq(schema.users.id, input.recipient_user_id))
    .limit(1);
  if (!recipient) throw new AppError('NOT_FOUND', 'Recipient not found: no user has this id');
  if (!recipient.keys) throw bodyFieldError('recipient_user_id', VAULT_ERRORS.recipientHasNoKeys, 'e2ee_no_keys');
  const envelope = parseEnvelope(asset.envelope);
  if (!envelope.ok || !envelope.envelope.recipients.some((w) => w.kid.toLowerCase() === recipient.id))
    throw bodyFieldError('recipient_user_id', VAULT_ERRORS.noRecipientWrap, 'envelope_recipient');
  const [given] = await ctx.db.select({ id: schema.vaultItems.id }).from(schema.vaultItems).where(eq(schema.vaultItems.asset_id, asset.id)).limit(1);
  if (given) throw alreadyGiven();

  const itemId = crypto.randomUUID();
  const messageId = crypto.randomUUID();
  const rule = ruleOf(input.condition_type, input.condition_value);
  try {
    await ctx.db.batch([
      ctx.db.insert(schema.vaultItems).values({
        id: itemId,
        owner_id: owner.id,
        asset_id: asset.id,
        recipient_user_id: recipient.id,
        condition_type: input.condition_type,
        condition_value: input.condition_value,
        every_year: input.every_year,
        legal_note: input.legal_note ?? asset.legal_note,
        claim_token: claimToken(),
        created_at: now,
      }),
      ctx.db.insert(schema.messages).values({
        id: messageId,
        sender_id: owner.id,
        recipient_user_id: recipient.id,
        content: '',
        content_encrypted: asset.envelope,
        deliver_at: now,
        delivery_method: 'email',
        use_e2ee: true,
        rules: [rule],
        status: 'scheduled',
        vault_item_id: itemId,
        created_at: now,
        updated_at: now,
      }),
      ctx.db.insert(schema.messageTransitions).values({
        id: crypto.randomUUID(),
        message_id: messageId,
        from_status: null,
        to_status: 'scheduled',
        cause: 'created',
        detail: `Created as a vault item (${asset.name}). Waiting for ${describeRule(rule)}.`,
        created_at: now,
      }),
      ctx.db.insert(schema.messageAttachments).values({
        id: crypto.randomUUID(),
        message_id: messageId,
        owner_id: owner.id,
        r2_key: asset.r2_key,
        iv: asset.iv,
        name: asset.name,
        size: asset.size,
        created_at: now,
      }),
    ]);
  } catch (err) {
    // Two assigns of one file at once: the unique index on asset_id let one through.
    if (isUniqueViolation(err)) throw alreadyGiven();
    // Swept as abandoned a moment before (vault/sweep-unassigned.ts): as if it was never uploaded.
    if (isForeignKeyViolation(err)) throw vaultAssetNotFound();
    throw err;
  }
  const loaded = await loadEngineMessage(ctx, messageId);
  if (loaded && nextWakeAt(loaded.message, loaded.deathConfirmedAt) != null) await syncReleaseTimer(ctx.env, messageId);
  return getVaultItem(ctx, owner.id, itemId);
}
