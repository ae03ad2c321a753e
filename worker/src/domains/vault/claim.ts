import type { VaultClaimView } from '../../contracts/vault';
import type { ServiceContext } from '../../env';
import { claimNotFound } from './read-vault';

/**
 * GET /api/vault/claim/{token} (public; the QR code's link). A visitor learns only that something will
 * be or has been left for someone; the signed-in recipient also learns from whom and, once released,
 * which Inbox message to open. Never the content, the condition or the owner to anyone else.
 */
export async function claimView(ctx: ServiceContext, token: string, viewerId: string | null): Promise<VaultClaimView> {
  const row = await ctx.env.DB.prepare(
    `SELECT i.recipient_user_id, o.display_name, o.email,
            (SELECT id FROM messages WHERE vault_item_id = i.id AND released_at IS NOT NULL ORDER BY released_at DESC LIMIT 1) AS released_id,
            (SELECT count(*) FROM messages WHERE vault_item_id = i.id AND status IN ('scheduled', 'armed')) AS open
     FROM vault_items i JOIN users o ON o.id = i.owner_id WHERE i.claim_token = ?1`,
  )
    .bind(token)
    .first<{ recipient_user_id: string; display_name: string | null; email: string; released_id: string | null; open: number }>();
  // A deleted item's link says the same as a link that never existed: nothing is left under it.
  if (!row) throw claimNotFound();
  const state = row.released_id ? 'released' : row.open > 0 ? 'waiting' : 'withdrawn';
  const forYou = viewerId == null ? null : viewerId === row.recipient_user_id;
  return {
    state,
    for_you: forYou,
    from_name: forYou ? row.display_name?.trim() || row.email : null,
    message_id: forYou && row.released_id ? row.released_id : null,
  };
}
