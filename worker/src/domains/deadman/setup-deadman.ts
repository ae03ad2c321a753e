import { schema } from '@afterword/db';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { TDeadman, ZDeadmanSetupInput } from '../../contracts/deadman';
import type { ServiceContext } from '../../env';
import { runBatch } from '../../lib/db-batch';
import { activityInsert } from '../activity/record-activity';
import { INACTIVE_DEADMAN } from './deadman-view';

/** POST /api/deadman/setup: arms (or re-arms) the switch; its deadline is `hours` from now. */
export async function setupDeadman(ctx: ServiceContext, userId: string, input: z.output<typeof ZDeadmanSetupInput>): Promise<TDeadman> {
  const now = ctx.now();
  const deadline = new Date(now.getTime() + Math.round(input.hours * 3600_000));
  await runBatch(ctx.db, [
    ctx.db
      .insert(schema.deadmanSwitches)
      .values({ user_id: userId, hours: input.hours, armed_at: now, deadline })
      .onConflictDoUpdate({ target: schema.deadmanSwitches.user_id, set: { hours: input.hours, armed_at: now, deadline } }),
    activityInsert(ctx, {
      userId,
      kind: 'deadman_set',
      source: 'web',
      at: now,
      summary: `Dead-man's switch set: if you do not check in for ${input.hours} hours, your account is scheduled for deletion.`,
    }),
  ]);
  return { active: true, hours: input.hours, deadline: deadline.toISOString() };
}

/** POST /api/deadman/cancel: removes the switch and any deletion it had scheduled. */
export async function cancelDeadman(ctx: ServiceContext, userId: string): Promise<TDeadman> {
  const now = ctx.now();
  await runBatch(ctx.db, [
    ctx.db.delete(schema.deadmanSwitches).where(eq(schema.deadmanSwitches.user_id, userId)),
    ctx.db
      .update(schema.scheduledDeletions)
      .set({ status: 'cancelled', done_at: now })
      // Only the switch's own: a deletion the user asked for is cancelled by its own call.
      .where(
        and(eq(schema.scheduledDeletions.user_id, userId), eq(schema.scheduledDeletions.status, 'scheduled'), eq(schema.scheduledDeletions.reason, 'deadman')),
      ),
    activityInsert(ctx, { userId, kind: 'deadman_cancelled', source: 'web', at: now, summary: "Dead-man's switch cancelled." }),
  ]);
  return INACTIVE_DEADMAN;
}
