import { schema } from '@afterword/db';
import { and, eq } from 'drizzle-orm';
import type { TScheduledDeletion, TScheduledDeletions } from '../../contracts/legal';
import type { ServiceContext } from '../../env';
import { getDeadman } from '../deadman/deadman-view';
import { DEADMAN_FINAL_NOTICE_MS } from '../deadman/process-deadman';
import { LAST_ACTIVE_SQL } from '../inactivity/policy';

/**
 * GET /api/legal/deletions: deletions that will happen, listed beforehand. An armed dead-man's switch
 * shows as a projected item (status "armed", dated by its current deadline plus the final notice), a
 * passed one as "scheduled". The inactivity policy's archival (domains/inactivity/) is listed while its export
 * window runs — an archive deletes nothing, but it changes the account, so it is said beforehand too.
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
  const archival = await ctx.env.DB.prepare(
    `SELECT i.archive_at FROM account_inactivity i JOIN users u ON u.id = i.user_id
     WHERE i.user_id = ?1 AND i.archived_at IS NULL AND ${LAST_ACTIVE_SQL} <= i.window_started_at`,
  )
    .bind(userId)
    .first<{ archive_at: number }>();
  if (archival) {
    items.push({ type: 'archival', id: 'inactivity', deletion_date: new Date(archival.archive_at).toISOString(), status: 'scheduled', reason: 'inactivity' });
  }
  return { items };
}
