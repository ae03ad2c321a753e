import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { vaultItemNotFound } from './read-vault';

/**
 * DELETE /api/vault/{id}: before release, the item, its messages (with their history and attachment
 * rows), its file's row and then the file's bytes in R2 go. One batch whose every statement is guarded by
 * "none of the item's messages was released", so a release at the same moment wins and the delete is a
 * 409 that changed nothing. A deleted message's ReleaseClock finds no message on its next alarm and stops.
 */
export async function deleteVaultItem(ctx: ServiceContext, ownerId: string, id: string): Promise<void> {
  const item = await ctx.env.DB.prepare(
    `SELECT i.id, a.id AS asset_id, a.r2_key, (SELECT count(*) FROM messages WHERE vault_item_id = i.id AND released_at IS NOT NULL) AS released
     FROM vault_items i JOIN vault_assets a ON a.id = i.asset_id WHERE i.id = ?1 AND i.owner_id = ?2`,
  )
    .bind(id, ownerId)
    .first<{ id: string; asset_id: string; r2_key: string; released: number }>();
  if (!item) throw vaultItemNotFound();
  const released = () => new AppError('CONFLICT', 'This item was already released to its recipient; it can no longer be deleted');
  if (item.released > 0) throw released();
  const unreleased = `NOT EXISTS (SELECT 1 FROM messages WHERE vault_item_id = ?1 AND released_at IS NOT NULL)`;
  const db = ctx.env.DB;
  const results = await db.batch([
    db.prepare(`DELETE FROM vault_assets WHERE id = ?2 AND ${unreleased}`).bind(item.id, item.asset_id),
    // The asset's row took the item with it (foreign key); its messages carry no foreign key to it.
    db.prepare(`DELETE FROM messages WHERE vault_item_id = ?1 AND NOT EXISTS (SELECT 1 FROM vault_items WHERE id = ?1)`).bind(item.id),
  ]);
  // D1 counts the cascaded item row too: any change means the file's row went.
  if ((results[0]?.meta.changes ?? 0) === 0) throw released();
  await ctx.env.BLOBS.delete(item.r2_key);
}
