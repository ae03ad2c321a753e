import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import { canaryLabel } from '../../contracts/canary';
import type { ServiceContext } from '../../env';
import { runBatch } from '../../lib/db-batch';
import { log } from '../../lib/logger';
import { activityInsert } from '../activity/record-activity';
import { settleCanaries, stopCanaryTimer } from './canary-timer';
import { keepCheckInLines } from './check-in-lines';
import { keepEventLines } from './event-lines';
import { findOwnCanary } from './list-canaries';

/**
 * Deletes the caller's canary: its token stops working at once (the row is gone) and its timer stops. Its last
 * check-in is kept where other domains still need it (the dead-man's deadline: CheckInParticipant.onCanaryDeleted),
 * after the check-ins its object holds are written into D1 — once the row is gone, a late projection finds no canary —
 * and so are the feed's lines of its check-ins, which only its object held.
 */
export async function deleteCanary(ctx: ServiceContext, userId: string, canaryId: string) {
  const canary = await findOwnCanary(ctx, userId, canaryId);
  // An object that cannot answer does not hold up the deletion (its stop is retried through the queue below): what
  // D1 has of its check-ins is kept, and at worst a check-in it alone held is lost to the dead-man's deadline.
  // Its object's log of check-ins and its timer events go with it: the feed keeps their lines in D1 (check-in-lines.ts,
  // event-lines.ts). The events are written into D1 (settled) before their lines are made from them.
  await Promise.all([
    settleCanaries(ctx.env, [canary.id], null, { events: true }).then(() => keepEventLines(ctx, userId, [canary.id])),
    keepCheckInLines(ctx, userId, [canary.id]),
  ]).catch((err) => log.warn('could not settle a deleted canary’s check-ins; keeping what D1 has', { canary_id: canary.id, error: String(err) }));
  const keep = ctx.checkInParticipants.flatMap((p) => p.onCanaryDeleted?.(ctx.env.DB, canary.id) ?? []);
  // Before the deletion, and apart from it: what it keeps is true whether or not the deletion then succeeds.
  if (keep.length) await ctx.env.DB.batch(keep);
  await runBatch(ctx.db, [
    ctx.db.delete(schema.canaries).where(eq(schema.canaries.id, canary.id)),
    activityInsert(ctx, { userId, canaryId: canary.id, kind: 'canary_deleted', source: 'web', summary: `Deleted canary "${canaryLabel(canary.name)}".` }),
  ]);
  await stopCanaryTimer(ctx.env, canary.id);
  return { ok: true as const };
}
