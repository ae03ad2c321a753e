import type { ServiceContext } from '../../env';

/** An upload not given to anyone within a day was abandoned (a closed tab between create and assign). */
export const UNASSIGNED_TTL_MS = 86_400_000;
const BATCH = 100;

/**
 * Removes vault files never given to anyone within a day of upload, rows first (each guarded by "still
 * not given", so an assign at the same moment keeps its file), then their R2 objects. Run by the cron.
 */
export async function sweepUnassignedVaultFiles(ctx: ServiceContext): Promise<number> {
  const cutoff = ctx.now().getTime() - UNASSIGNED_TTL_MS;
  const { results } = await ctx.env.DB.prepare(
    `DELETE FROM vault_assets WHERE id IN (
       SELECT id FROM vault_assets a WHERE a.created_at < ?1 AND NOT EXISTS (SELECT 1 FROM vault_items WHERE asset_id = a.id) LIMIT ${BATCH}
     ) AND NOT EXISTS (SELECT 1 FROM vault_items WHERE asset_id = vault_assets.id)
     RETURNING r2_key`,
  )
    .bind(cutoff)
    .all<{ r2_key: string }>();
  if (results.length) await ctx.env.BLOBS.delete(results.map((r) => r.r2_key));
  return results.length;
}
