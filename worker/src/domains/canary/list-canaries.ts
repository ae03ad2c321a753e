import { schema } from '@afterword/db';
import { and, asc, eq } from 'drizzle-orm';
import type { TCanary, TCanaryStatus } from '../../contracts/canary';
import type { ServiceContext } from '../../env';
import { notFound } from '../../lib/errors';
import { clockOf } from './canary-timer';
import { toCanaryView } from './canary-view';

/**
 * Every canary of the user, each with its latest check-in as its object holds it: a token check-in is
 * answered by the object and reaches D1's copy a moment later through the queue, and the owner must see
 * it on the very next read (docs/decisions/canary-engine.md, "Reading a check-in at once"). An object that
 * cannot answer leaves D1's copy, which is at most that moment behind.
 */
export async function listCanaries(ctx: ServiceContext, userId: string): Promise<TCanary[]> {
  const rows = await ctx.db.select().from(schema.canaries).where(eq(schema.canaries.user_id, userId)).orderBy(asc(schema.canaries.created_at));
  const latest = await Promise.all(
    rows.map((r) =>
      r.active
        ? clockOf(ctx.env, r.id)
            .lastCheckIn()
            .catch(() => null)
        : null,
    ),
  );
  return Promise.all(
    rows.map((r, i) => {
      const held = latest[i];
      return toCanaryView(ctx, held != null && held > r.last_check_in.getTime() ? { ...r, last_check_in: new Date(held) } : r);
    }),
  );
}

/** Not found, or not yours (and a malformed id: contracts/ids.ts). */
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
  if (!first) {
    return {
      last_check_in: null,
      interval_seconds: null,
      missed: false,
      deadline: null,
      misses: 0,
      status: null,
      canary_id: null,
      schedule: null,
      paused_until: null,
    };
  }
  return {
    last_check_in: first.last_check_in,
    interval_seconds: first.interval_seconds,
    missed: first.status === 'missed',
    deadline: first.deadline,
    misses: first.misses,
    status: first.status,
    canary_id: first.id,
    schedule: first.schedule,
    paused_until: first.paused_until,
  };
}
