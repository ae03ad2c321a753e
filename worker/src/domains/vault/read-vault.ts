import type { VaultConditionType, VaultItemView } from '../../contracts/vault';
import type { MessageStatus } from '../../contracts/messages';
import type { ServiceContext } from '../../env';
import { appOrigin } from '../../lib/app-origin';
import { AppError } from '../../lib/errors';
import { consentWithdrawnSql } from '../legal/consent-state';
import { conditionText } from './condition';

export const vaultItemNotFound = () => new AppError('NOT_FOUND', 'Vault item not found');
/** A claim link with no item under it: never made, malformed, or its item deleted — told apart by nobody. */
export const claimNotFound = () => new AppError('NOT_FOUND', 'Nothing is waiting under this link: it may have been withdrawn');
export const vaultAssetNotFound = () => new AppError('NOT_FOUND', 'Vault file not found: upload it first (POST /api/vault/create)');
const LIST_LIMIT = 500;

interface ItemRow {
  id: string;
  asset_id: string;
  recipient_user_id: string;
  recipient_name: string | null;
  recipient_email: string;
  condition_type: VaultConditionType;
  condition_value: string | null;
  every_year: number;
  legal_note: string | null;
  name: string;
  size: number;
  claim_token: string;
  created_at: number;
  message_id: string;
  status: MessageStatus;
  paused: number;
  released_at: number | null;
}

/**
 * The item with its file, its recipient, and its latest message (a yearly birthday item has one per
 * year): the status is that message's, `released_at` the last release of any of them.
 */
const ITEM_SELECT = `
  SELECT i.id, i.asset_id, i.recipient_user_id, r.display_name AS recipient_name, r.email AS recipient_email,
         i.condition_type, i.condition_value, i.every_year, i.legal_note, a.name, a.size, i.claim_token, i.created_at,
         m.id AS message_id, m.status,
         (m.status IN ('scheduled', 'armed') AND ${consentWithdrawnSql('i.owner_id', 'messages')}) AS paused,
         (SELECT max(released_at) FROM messages WHERE vault_item_id = i.id) AS released_at
  FROM vault_items i
  JOIN vault_assets a ON a.id = i.asset_id
  JOIN users r ON r.id = i.recipient_user_id
  JOIN messages m ON m.id = (SELECT id FROM messages WHERE vault_item_id = i.id ORDER BY deliver_at DESC LIMIT 1)`;

export const qrCodeUrl = (ctx: ServiceContext, token: string) => `${appOrigin(ctx.env)}/api/vault/claim/${token}/qr`;
export const claimUrl = (ctx: ServiceContext, token: string) => `${appOrigin(ctx.env)}/claim/${token}`;

function toView(ctx: ServiceContext, r: ItemRow): VaultItemView {
  const everyYear = Boolean(r.every_year);
  return {
    id: r.id,
    asset_id: r.asset_id,
    recipient_user_id: r.recipient_user_id,
    recipient_name: r.recipient_name?.trim() || null,
    recipient_email: r.recipient_email,
    condition_type: r.condition_type,
    condition_value: r.condition_value,
    every_year: everyYear,
    legal_note: r.legal_note,
    name: r.name,
    size: r.size,
    status: r.status,
    paused: r.paused ? 'consent_withdrawn' : null,
    message_id: r.message_id,
    released_at: r.released_at == null ? null : new Date(r.released_at).toISOString(),
    condition_text: conditionText(r.condition_type, r.condition_value, everyYear),
    qr_code_url: qrCodeUrl(ctx, r.claim_token),
    claim_url: claimUrl(ctx, r.claim_token),
    created_at: new Date(r.created_at).toISOString(),
  };
}

/** GET /api/vault/list: the owner's items, newest first. */
export async function listVaultItems(ctx: ServiceContext, ownerId: string): Promise<VaultItemView[]> {
  const { results } = await ctx.env.DB.prepare(`${ITEM_SELECT} WHERE i.owner_id = ?1 ORDER BY i.created_at DESC, i.id LIMIT ${LIST_LIMIT}`)
    .bind(ownerId)
    .all<ItemRow>();
  return results.map((r) => toView(ctx, r));
}

/** GET /api/vault/{id}: the owner's item; anyone else's is 404, as if it did not exist. */
export async function getVaultItem(ctx: ServiceContext, ownerId: string, id: string): Promise<VaultItemView> {
  const row = await ctx.env.DB.prepare(`${ITEM_SELECT} WHERE i.id = ?1 AND i.owner_id = ?2`).bind(id, ownerId).first<ItemRow>();
  if (!row) throw vaultItemNotFound();
  return toView(ctx, row);
}

/** The claim link of an item that exists (for its QR code); a deleted item's is 404 like its claim. */
export async function claimLinkByToken(ctx: ServiceContext, token: string): Promise<string> {
  const row = await ctx.env.DB.prepare('SELECT 1 AS ok FROM vault_items WHERE claim_token = ?1').bind(token).first();
  if (!row) throw claimNotFound();
  return claimUrl(ctx, token);
}
