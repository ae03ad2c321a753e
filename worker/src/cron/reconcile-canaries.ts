import { schema } from '@afterword/db';
import { and, eq, isNull, lte, or } from 'drizzle-orm';
import { advanceCanary } from '../domains/canary/advance-canary';
import { armCanaryTimer, settleCanaries } from '../domains/canary/canary-timer';
import { emitCountedMisses } from '../domains/canary/emit-missed-events';
import type { ServiceContext } from '../env';
import { runBatch } from '../lib/db-batch';
import { log } from '../lib/logger';

/** An alarm this much past its time counts as lost (alarms normally fire within a second). */
export const OVERDUE_AFTER_MS = 30_000;
const BATCH = 500;

/**
 * Timers are an optimisation of latency, never the only record (DESIGN section 2). Every minute:
 * 1) canaries with no known timer or an alarm overdue are advanced here (recording what is due) and
 *    their timer re-armed, logging how late each repaired deadline was;
 * 2) misses that count but were never put on the queue (a crash between record and send) are sent.
 */
export async function reconcileCanaries(ctx: ServiceContext) {
  const now = ctx.now();
  const stale = await ctx.db
    .select()
    .from(schema.canaries)
    .where(
      and(
        eq(schema.canaries.active, true),
        or(isNull(schema.canaries.timer_due_at), lte(schema.canaries.timer_due_at, new Date(now.getTime() - OVERDUE_AFTER_MS))),
      ),
    )
    .limit(BATCH);
  let failed = 0;
  for (const canary of stale) {
    const lateMs = canary.timer_due_at ? now.getTime() - canary.timer_due_at.getTime() : null;
    try {
      // The object is the record of the check-ins: D1 agrees with it before anything is recorded. An
      // object that cannot answer leaves the canary for the next run (a miss recorded from a copy that
      // lags could be false).
      await settleCanaries(ctx.env, [canary.id]);
      await advanceCanary(ctx, canary.id, 'reconciler');
      const next = await armCanaryTimer(ctx.env, canary.id);
      log.warn('reconciler repaired a canary timer', {
        canary_id: canary.id,
        late_ms: lateMs,
        timer_was: canary.timer_due_at ? 'overdue' : 'missing',
        next_due_at: next,
      });
    } catch (err) {
      // One canary that cannot be advanced (e.g. the queue is down) must not stop the others' repair.
      failed++;
      log.error('reconciler could not repair a canary; next run retries', { canary_id: canary.id, late_ms: lateMs, error: String(err) });
    }
  }

  const unsent = await ctx.db
    .select({ t: schema.canaryTransitions, c: schema.canaries })
    .from(schema.canaryTransitions)
    .innerJoin(schema.canaries, eq(schema.canaries.id, schema.canaryTransitions.canary_id))
    .where(
      and(
        eq(schema.canaryTransitions.kind, 'missed'),
        isNull(schema.canaryTransitions.emitted_at),
        lte(schema.canaryTransitions.counts_from, new Date(now.getTime() - OVERDUE_AFTER_MS)),
      ),
    )
    .limit(BATCH);
  let resent = 0;
  try {
    for (const { t, c } of unsent) {
      const marks = await emitCountedMisses(ctx, c, [t], now.getTime());
      await runBatch(ctx.db, marks);
      resent += marks.length ? 1 : 0;
    }
  } catch (err) {
    log.error('reconciler could not re-send missed events; next run retries', { error: String(err) });
  }
  return { repaired: stale.length - failed, failed, resent };
}
