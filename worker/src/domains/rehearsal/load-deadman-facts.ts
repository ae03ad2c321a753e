import { schema } from '@afterword/db';
import { and, count, eq } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { getDeadman } from '../deadman/deadman-view';
import type { DeadmanFacts } from './plan-deadman';

/** The owner's dead-man's switch as a rehearsal plans it (plan-deadman.ts); null when none is set. */
export async function loadDeadmanFacts(ctx: ServiceContext, userId: string): Promise<DeadmanFacts | null> {
  const deadman = await getDeadman(ctx, userId);
  if (!deadman.active || deadman.hours == null || deadman.deadline == null) return null;
  const [scheduled] = await ctx.db
    .select({ at: schema.scheduledDeletions.deletion_date })
    .from(schema.scheduledDeletions)
    .where(
      and(eq(schema.scheduledDeletions.user_id, userId), eq(schema.scheduledDeletions.status, 'scheduled'), eq(schema.scheduledDeletions.reason, 'deadman')),
    )
    .limit(1);
  const [heirs] = await ctx.db.select({ n: count() }).from(schema.deadmanHeirs).where(eq(schema.deadmanHeirs.owner_id, userId));
  return { hours: deadman.hours, deadline: Date.parse(deadman.deadline), scheduledDeletionAt: scheduled?.at.getTime() ?? null, heirs: heirs?.n ?? 0 };
}
