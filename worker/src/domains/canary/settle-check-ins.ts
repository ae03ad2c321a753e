import { schema } from '@afterword/db';
import { and, eq } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { settleCanaries } from './canary-timer';

/**
 * Before a decision that rests on a user's check-ins (a release at the end of a cancel window, a dead-man
 * deletion): every active canary's object writes what it knows into D1, including the first check-in at
 * or after `since` (the moment a message was armed); `events`: the current cycles' timer events as well. Throws when an object cannot answer, so the caller
 * decides later rather than on a copy that may lag.
 */
export async function settleCheckInsOf(ctx: ServiceContext, userId: string, since: number | null = null, opts: { events?: boolean } = {}): Promise<void> {
  const canaries = await ctx.db
    .select({ id: schema.canaries.id })
    .from(schema.canaries)
    .where(and(eq(schema.canaries.user_id, userId), eq(schema.canaries.active, true)));
  await settleCanaries(
    ctx.env,
    canaries.map((c) => c.id),
    since,
    opts,
  );
}
