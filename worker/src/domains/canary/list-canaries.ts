import { schema } from '@afterword/db';
import { and, asc, eq } from 'drizzle-orm';
import type { TCanary, TCanaryStatus } from '../../contracts/canary';
import type { ServiceContext } from '../../env';
import { notFound } from '../../lib/errors';
import { toCanaryView } from './canary-view';

export async function listCanaries(ctx: ServiceContext, userId: string): Promise<TCanary[]> {
  const rows = await ctx.db.select().from(schema.canaries).where(eq(schema.canaries.user_id, userId)).orderBy(asc(schema.canaries.created_at));
  return Promise.all(rows.map((r) => toCanaryView(ctx, r)));
}

/** Not found, or not yours (and a malformed id: api/ids.ts). */
export const canaryNotFound = () => notFound('Canary not found');

/** The caller's canary, or 404 — also when it exists but belongs to someone else. */
export async function findOwnCanary(ctx: ServiceContext, userId: string, canaryId: string) {
  const [row] = await ctx.db
    .select()
    .from(schema.canaries)
    .where(and(eq(schema.canaries.id, canaryId), eq(schema.canaries.user_id, userId)))
    .limit(1);
  if (!row) throw canaryNotFound();
  return row;
}

/** GET /api/canary/status: the active canary with the earliest deadline (nulls when there is none). */
export async function canaryStatus(ctx: ServiceContext, userId: string): Promise<TCanaryStatus> {
  const views = (await listCanaries(ctx, userId)).filter((c) => c.active);
  const first = views.sort((a, b) => Date.parse(a.deadline) - Date.parse(b.deadline))[0];
  if (!first) return { last_check_in: null, interval_seconds: null, missed: false, deadline: null, misses: 0, status: null, canary_id: null };
  return {
    last_check_in: first.last_check_in,
    interval_seconds: first.interval_seconds,
    missed: first.status === 'missed',
    deadline: first.deadline,
    misses: first.misses,
    status: first.status,
    canary_id: first.id,
  };
}
