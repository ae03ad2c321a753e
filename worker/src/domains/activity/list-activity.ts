import { schema } from '@afterword/db';
import { desc, eq } from 'drizzle-orm';
import type { TActivity } from '../../contracts/activity';
import type { ServiceContext } from '../../env';

export async function listRecentActivity(ctx: ServiceContext, userId: string, limit = 20): Promise<TActivity[]> {
  const rows = await ctx.db
    .select()
    .from(schema.activity)
    .where(eq(schema.activity.user_id, userId))
    .orderBy(desc(schema.activity.created_at), desc(schema.activity.id))
    .limit(Math.min(Math.max(limit, 1), 100));
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as TActivity['kind'],
    source: r.source,
    canary_id: r.canary_id,
    summary: r.summary,
    created_at: r.created_at.toISOString(),
  }));
}
