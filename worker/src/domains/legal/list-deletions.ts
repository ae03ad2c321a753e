import { schema } from '@afterword/db';
import { and, eq } from 'drizzle-orm';
import type { TScheduledDeletion, TScheduledDeletions } from '../../contracts/legal';
import type { ServiceContext } from '../../env';
import { getDeadman } from '../deadman/deadman-view';
import { DEADMAN_FINAL_NOTICE_MS } from '../deadman/process-deadman';

/**
 * GET /api/legal/deletions: deletions that will happen, listed beforehand. An armed dead-man's switch
 * shows as a projected item (status "armed", dated by its current deadline plus the final notice), a
 * passed one as "scheduled".
 */
export async function listScheduledDeletions(ctx: ServiceContext, userId: string): Promise<TScheduledDeletions> {
  const rows = await ctx.db
    .select()
    .from(schema.scheduledDeletions)
    .where(and(eq(schema.scheduledDeletions.user_id, userId), eq(schema.scheduledDeletions.status, 'scheduled')));
  const items: TScheduledDeletion[] = rows.map((r) => ({
    type: r.type,
    id: r.id,
    deletion_date: r.deletion_date.toISOString(),
    status: 'scheduled',
    reason: r.reason,
  }));
  const deadman = await getDeadman(ctx, userId);
  if (deadman.active && deadman.deadline && !items.some((i) => i.reason === 'deadman')) {
    items.push({
      type: 'account',
      id: 'deadman',
      deletion_date: new Date(Date.parse(deadman.deadline) + DEADMAN_FINAL_NOTICE_MS).toISOString(),
      status: 'armed',
      reason: 'deadman',
    });
  }
  return { items };
}
