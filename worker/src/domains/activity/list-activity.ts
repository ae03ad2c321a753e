import { schema } from '@afterword/db';
import { desc, eq } from 'drizzle-orm';
import type { TActivity } from '../../contracts/activity';
import type { ServiceContext } from '../../env';

const newestFirst = (a: TActivity, b: TActivity) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

/**
 * The user's newest `limit` feed lines: D1's, and those other domains keep elsewhere (line-sources.ts: the canaries'
 * token, ping and link check-ins), merged newest first. A line both hold (kept into D1 before an export or a canary's
 * deletion) is shown once.
 */
export async function listRecentActivity(ctx: ServiceContext, userId: string, limit = 20): Promise<TActivity[]> {
  const n = Math.min(Math.max(limit, 1), 100);
  const [rows, ...kept] = await Promise.all([
    ctx.db
      .select()
      .from(schema.activity)
      .where(eq(schema.activity.user_id, userId))
      .orderBy(desc(schema.activity.created_at), desc(schema.activity.id))
      .limit(n),
    ...ctx.activityLines.map((source) => source.recent(ctx, userId, n)),
  ]);
  const lines = new Map<string, TActivity>();
  for (const r of rows) {
    lines.set(r.id, {
      id: r.id,
      kind: r.kind as TActivity['kind'],
      source: r.source,
      canary_id: r.canary_id,
      summary: r.summary,
      created_at: r.created_at.toISOString(),
    });
  }
  for (const line of kept.flat()) if (!lines.has(line.id)) lines.set(line.id, line);
  return [...lines.values()].sort(newestFirst).slice(0, n);
}
