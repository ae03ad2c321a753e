import { schema } from '@afterword/db';
import { and, eq } from 'drizzle-orm';
import { defineOperation } from '../api/operation';
import { type TScheduledDeletion, type TScheduledDeletions, ZScheduledDeletions } from '../contracts/legal';
import type { ServiceContext } from '../env';
import { getDeadman } from '../domains/deadman/deadman-view';
import { DEADMAN_FINAL_NOTICE_MS } from '../domains/deadman/deletion-notice';
import { LAST_ACTIVE_SQL } from '../domains/inactivity/policy';
import { tags } from '../domains/legal/operations';

/**
 * GET /api/legal/deletions: deletions that will happen, listed beforehand. An armed dead-man's switch
 * shows as a projected item (status "armed", dated by its current deadline plus the final notice), a
 * passed one as "scheduled". The inactivity policy's archival (domains/inactivity/) is listed while its export
 * window runs — an archive deletes nothing, but it changes the account, so it is said beforehand too.
 * Composed here rather than in the legal domain: it reads the dead-man's switch and the inactivity policy,
 * which themselves depend on legal, so legal imports neither.
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

/** GET /api/legal/deletions (`legal.deletions`), in the Legal area of the API with the legal domain's operations. */
export const deletionOperations = [
  defineOperation({
    method: 'get',
    path: '/api/legal/deletions',
    trpc: 'deletions',
    access: { kind: 'session' },
    input: {},
    output: ZScheduledDeletions,
    docs: {
      operationId: 'listScheduledDeletions',
      summary: 'Deletions that will happen',
      description: 'Listed beforehand: an armed dead-man\'s switch shows as a projected item (`status: "armed"`), a passed one as `scheduled`.',
      tags,
      responses: { 200: { description: 'Scheduled deletions' } },
    },
    run: ({ services, principal }) => listScheduledDeletions(services, principal.user.id),
  }),
] as const;
