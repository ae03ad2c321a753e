import type { TLegacyPart } from '../../contracts/legacy';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { archiveStream } from '../legal/export/export-archive';
import { copySelection } from './copy-selection';
import { putStream } from './multipart-put';

/**
 * The JOBS consumer of a copy left to an heir: the owner's chosen parts as one ZIP archive (the export's
 * own format, streamed into R2 part by part, so memory stays flat), then marked ready. A copy of a
 * deletion no longer scheduled is not built; a retried job rebuilds the same key.
 */
export async function buildLegacyCopy(ctx: ServiceContext, copyId: string): Promise<'built' | 'none'> {
  const row = await ctx.env.DB.prepare(
    `SELECT c.status, c.r2_key, c.parts, c.from_label, d.user_id, d.status AS deletion_status
     FROM legacy_copies c JOIN scheduled_deletions d ON d.id = c.deletion_id WHERE c.id = ?1`,
  )
    .bind(copyId)
    .first<{ status: string; r2_key: string; parts: string; from_label: string; user_id: string; deletion_status: string }>();
  if (row?.status !== 'pending' || row.deletion_status !== 'scheduled') return 'none';
  const parts = JSON.parse(row.parts) as TLegacyPart[];
  const stream = await archiveStream(ctx, row.user_id, copySelection(parts, row.from_label));
  const size = await putStream(ctx.env.BLOBS, row.r2_key, stream, { httpMetadata: { contentType: 'application/zip' } });
  await ctx.env.DB.prepare("UPDATE legacy_copies SET status = 'ready', size = ?2, ready_at = ?3 WHERE id = ?1 AND status = 'pending'")
    .bind(copyId, size, ctx.now().getTime())
    .run();
  log.info('legacy copy built', { copy_id: copyId, size });
  return 'built';
}
