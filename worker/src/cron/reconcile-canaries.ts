import { schema } from '@afterword/db';
import { and, eq, gt, isNull, lte, or } from 'drizzle-orm';
import { advanceCanary } from '../domains/canary/advance-canary';
import { OVERDUE_AFTER_MS } from '../domains/canary/canary-timer';
import type { ServiceContext } from '../env';
import { log } from '../lib/logger';

const BATCH = 500;
/**
 * How often the scan for lost timers runs: every tenth minute of the every-minute cron. It reads every
 * canary's row (`timer_due_at` has no index: each wake's write of it would be two rows, and a read costs a
 * thousandth of a write — docs/performance.md "The timer without its index"), so a lost alarm is found
 * within ten minutes and a half of its time instead of one and a half.
 */
export const LOST_TIMER_SCAN_EVERY_MINUTES = 10;

/** Whether the cron run scheduled at `scheduledTime` scans for lost timers (the runs at :00, :10, …). */
export const scansLostTimers = (scheduledTime: number) => Math.floor(scheduledTime / 60_000) % LOST_TIMER_SCAN_EVERY_MINUTES === 0;

/**
 * Timers are an optimisation of latency, never the only record (docs/server-rules.md "Canaries and check-ins").
 * From D1's projection: 1) canaries with no known timer or an alarm overdue (when `lostTimers`: every tenth
 * minute, scansLostTimers), and 2) every minute, canaries with
 * a miss of the current cycle that counts but was never put on the queue (a crash between record and send, or a
 * projection not written yet) are run by their own object (docs/decisions/canary-engine.md: the record of the clock), which
 * records what is due, sends what it has not sent, writes it all into D1 and re-arms its timer. Each
 * repair is logged with how late it was. An object that cannot answer is left for the next run.
 */
export async function reconcileCanaries(ctx: ServiceContext, opts: { lostTimers: boolean } = { lostTimers: true }) {
  const now = ctx.now();
  const stale = opts.lostTimers
    ? await ctx.db
        .select({ id: schema.canaries.id, timer_due_at: schema.canaries.timer_due_at })
        .from(schema.canaries)
        .where(
          and(
            eq(schema.canaries.active, true),
            or(isNull(schema.canaries.timer_due_at), lte(schema.canaries.timer_due_at, new Date(now.getTime() - OVERDUE_AFTER_MS))),
          ),
        )
        .limit(BATCH)
    : [];
  const unsent = await ctx.db
    .selectDistinct({ id: schema.canaryTransitions.canary_id })
    .from(schema.canaryTransitions)
    .innerJoin(schema.canaries, eq(schema.canaries.id, schema.canaryTransitions.canary_id))
    .where(
      and(
        eq(schema.canaryTransitions.kind, 'missed'),
        isNull(schema.canaryTransitions.emitted_at),
        lte(schema.canaryTransitions.counts_from, new Date(now.getTime() - OVERDUE_AFTER_MS)),
        // Only the current cycle: a check-in (at or after its deadline) ended every cycle with misses
        // before it, and their misses are never sent — without this, such a canary was run every minute
        // for ever. (D1's last check-in may lag the object's: then it is run once more, harmlessly.)
        gt(schema.canaryTransitions.cycle_deadline, schema.canaries.last_check_in),
      ),
    )
    .limit(BATCH);
  const lateness = new Map<string, number | null>(stale.map((c) => [c.id, c.timer_due_at ? now.getTime() - c.timer_due_at.getTime() : null]));
  let failed = 0;
  let resent = 0;
  for (const id of new Set([...stale.map((c) => c.id), ...unsent.map((u) => u.id)])) {
    const lateMs = lateness.get(id) ?? null;
    try {
      const { nextDueAt } = await advanceCanary(ctx, id, 'reconciler', { armsTimer: true });
      if (lateness.has(id)) {
        log.warn('reconciler repaired a canary timer', {
          canary_id: id,
          late_ms: lateMs,
          timer_was: lateMs == null ? 'missing' : 'overdue',
          next_due_at: nextDueAt?.getTime() ?? null,
        });
      } else resent++;
    } catch (err) {
      // One canary that cannot be advanced (e.g. the queue is down) must not stop the others' repair.
      failed++;
      log.error('reconciler could not repair a canary; next run retries', { canary_id: id, late_ms: lateMs, error: String(err) });
    }
  }
  return { repaired: stale.length - failed, failed, resent };
}
