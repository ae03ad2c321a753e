import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { runBatch } from '../../lib/db-batch';
import { log } from '../../lib/logger';
import { stopCanaryTimer } from '../canary/canary-timer';

/**
 * The one erasure of an account. Tables keyed to the user by a foreign key go with the user row
 * (sessions, canaries, activity, dead-man switch); tables kept without one are cleared here. The
 * data-rights capability extends this (R2 objects, export to recipients first).
 */
export async function deleteAccount(ctx: ServiceContext, userId: string) {
  const canaries = await ctx.db.select({ id: schema.canaries.id }).from(schema.canaries).where(eq(schema.canaries.user_id, userId));
  await Promise.all(canaries.map((c) => stopCanaryTimer(ctx.env, c.id)));
  await runBatch(ctx.db, [
    ctx.db.delete(schema.canaryTransitions).where(eq(schema.canaryTransitions.user_id, userId)),
    ctx.db.delete(schema.users).where(eq(schema.users.id, userId)),
  ]);
  log.info('account deleted', { user_id: userId, canaries: canaries.length });
}
