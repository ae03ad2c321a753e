import type { TLegacyCopyView } from '../../contracts/legacy';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';

interface CopyRow {
  id: string;
  from_label: string;
  parts: string;
  status: 'pending' | 'ready';
  size: number | null;
  created_at: number;
  ready_at: number | null;
  r2_key: string;
}

/** Copies exist for their heir only once the deletion they came with was carried out. */
const MINE = `FROM legacy_copies c JOIN scheduled_deletions d ON d.id = c.deletion_id
  WHERE c.recipient_user_id = ?1 AND c.status = 'ready' AND d.status = 'done'`;

const view = (r: CopyRow): TLegacyCopyView => ({
  id: r.id,
  from: r.from_label,
  parts: JSON.parse(r.parts),
  status: r.status,
  size: r.size,
  created_at: new Date(r.created_at).toISOString(),
  ready_at: r.ready_at == null ? null : new Date(r.ready_at).toISOString(),
});

export const copyNotFound = () => new AppError('NOT_FOUND', 'No copy left to you has this id');

/** GET /api/legacy-copies: what people who left chose to leave the caller, newest first. */
export async function listLegacyCopies(ctx: ServiceContext, userId: string): Promise<TLegacyCopyView[]> {
  const { results } = await ctx.env.DB.prepare(`SELECT c.* ${MINE} ORDER BY c.created_at DESC`).bind(userId).all<CopyRow>();
  return results.map(view);
}

/** GET /api/legacy-copies/{id}/download: the archive, streamed from R2 (404 when it is not the caller's). */
export async function downloadLegacyCopy(ctx: ServiceContext, userId: string, id: string): Promise<Response> {
  const row = await ctx.env.DB.prepare(`SELECT c.* ${MINE} AND c.id = ?2`).bind(userId, id).first<CopyRow>();
  if (!row) throw copyNotFound();
  const object = await ctx.env.BLOBS.get(row.r2_key);
  if (!object) throw copyNotFound();
  return new Response(object.body, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Length': String(object.size),
      'Content-Disposition': `attachment; filename="afterword-legacy-${row.id.slice(0, 8)}.zip"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
