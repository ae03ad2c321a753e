import { schema } from '@afterword/db';
import { and, eq, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { canaryLabel } from '../../contracts/canary';
import { canaryHealth, graceMs } from '../../contracts/canary-health';
import type { ServiceContext } from '../../env';
import { runBatch } from '../../lib/db-batch';
import { activityInsert } from '../activity/record-activity';
import { emitCountedMisses } from './emit-missed-events';
import { humanTime } from '../../lib/human-time';

type Transition = typeof schema.canaryTransitions.$inferSelect;
export type RecordedBy = Transition['recorded_by'];

/** At most this many missed intervals are recorded by one run; the rest follow in the next run. */
export const MAX_MISSES_PER_RUN = 500;

/**
 * A reminder delivered this much less than one grace period before the deadline still counts as
 * "one grace period earlier": delivery itself takes a moment (DESIGN section 2, docs/decisions/canary-engine.md).
 */
export const warningTolerance = (graceMillis: number) => Math.min(60_000, Math.round(graceMillis * 0.05));

/**
 * Brings one canary's recorded history up to `now`: records the grace-entry reminder, each missed
 * interval and, when the service was late or the owner was never warned, a re-warning with a fresh
 * grace period; then emits the misses that count. Safe to run any number of times, from the
 * canary's alarm or from the reconciler: each transition is one row under a unique key.
 * Returns when this canary next needs attention (null: never, e.g. deleted).
 */
export async function advanceCanary(
  ctx: ServiceContext,
  canaryId: string,
  recordedBy: RecordedBy,
  /** Set by the canary's Durable Object, which arms its alarm for the returned instant: it is saved as `timer_due_at`. */
  opts: { armsTimer?: boolean } = {},
): Promise<{ nextDueAt: Date | null }> {
  // Round trips are what make a burst of deadlines late (docs/performance.md): the canary and its
  // current cycle's transitions come back in one batch, the cycle picked by a subquery.
  const currentCycle = sql`(SELECT last_check_in + interval_seconds * 1000 FROM canaries WHERE id = ${canaryId})`;
  const [canaries, cycleRows] = await ctx.db.batch([
    ctx.db.select().from(schema.canaries).where(eq(schema.canaries.id, canaryId)).limit(1),
    ctx.db
      .select()
      .from(schema.canaryTransitions)
      .where(and(eq(schema.canaryTransitions.canary_id, canaryId), eq(schema.canaryTransitions.cycle_deadline, currentCycle))),
  ]);
  const canary = canaries[0];
  if (!canary?.active) return { nextDueAt: null };

  const now = ctx.now().getTime();
  const intervalMs = canary.interval_seconds * 1000;
  const grace = graceMs(canary.interval_seconds);
  const health = canaryHealth({ lastCheckInMs: canary.last_check_in.getTime(), intervalSeconds: canary.interval_seconds }, now);
  const deadline = health.deadlineMs;
  const cycle = new Date(deadline);

  const loadCycle = () =>
    ctx.db
      .select()
      .from(schema.canaryTransitions)
      .where(and(eq(schema.canaryTransitions.canary_id, canary.id), eq(schema.canaryTransitions.cycle_deadline, cycle)));
  let recorded: Transition[] = cycleRows;
  const find = (kind: Transition['kind'], misses: number) => recorded.find((t) => t.kind === kind && t.misses === misses);

  const base = { canary_id: canary.id, user_id: canary.user_id, cycle_deadline: cycle, fired_at: new Date(now), recorded_by: recordedBy };
  const inserts: BatchItem<'sqlite'>[] = [];

  if (health.status === 'grace' && !find('grace_reminder', 0)) {
    // Until notification channels exist, the in-app feed is the channel: recorded is delivered.
    inserts.push(
      ctx.db
        .insert(schema.canaryTransitions)
        .values({
          ...base,
          id: crypto.randomUUID(),
          kind: 'grace_reminder',
          misses: 0,
          due_at: new Date(health.graceStartsMs),
          delivery_channel: 'in_app',
          delivery_status: 'delivered',
          delivered_at: new Date(now),
        })
        .onConflictDoNothing(),
      activityInsert(ctx, {
        userId: canary.user_id,
        canaryId: canary.id,
        kind: 'grace_reminder',
        source: 'system',
        at: new Date(now),
        summary: `Reminder: check in before ${humanTime(cycle.getTime())} or your canary "${canaryLabel(canary.name)}" is missed.`,
      }),
    );
  }

  if (health.status === 'missed') {
    const first = find('missed', 1);
    let countsFrom = first?.counts_from?.getTime() ?? now;
    if (!first) {
      const reminder = find('grace_reminder', 0) ?? find('late_rewarn', 0);
      const warned = reminder?.delivered_at != null && now - reminder.delivered_at.getTime() >= grace - warningTolerance(grace);
      const onTime = now - deadline <= grace;
      if (!warned || !onTime) {
        // DESIGN section 2: our lateness (or a warning that never went out) must not become a
        // release. Warn now and give a fresh grace period before the misses count.
        countsFrom = now + grace;
        inserts.push(
          ctx.db
            .insert(schema.canaryTransitions)
            .values({
              ...base,
              id: crypto.randomUUID(),
              kind: 'late_rewarn',
              misses: 0,
              due_at: new Date(deadline),
              delivery_channel: 'in_app',
              delivery_status: 'delivered',
              delivered_at: new Date(now),
            })
            .onConflictDoNothing(),
          activityInsert(ctx, {
            userId: canary.user_id,
            canaryId: canary.id,
            kind: 'late_rewarn',
            source: 'system',
            at: new Date(now),
            summary: `Your canary "${canaryLabel(canary.name)}" passed its deadline while reminders could not reach you. Check in before ${humanTime(countsFrom)}; nothing is released before then.`,
          }),
        );
      }
    }
    // After a long outage many intervals may be due at once: record them in bounded runs (the next
    // run follows at once), with one activity row per run rather than one per interval.
    const recordedMisses = new Set(recorded.filter((t) => t.kind === 'missed').map((t) => t.misses));
    const unrecorded: number[] = [];
    for (let misses = 1; misses <= health.misses && unrecorded.length < MAX_MISSES_PER_RUN; misses++) {
      if (!recordedMisses.has(misses)) unrecorded.push(misses);
    }
    for (const misses of unrecorded) {
      const dueAt = deadline + (misses - 1) * intervalMs;
      inserts.push(
        ctx.db
          .insert(schema.canaryTransitions)
          .values({
            ...base,
            id: crypto.randomUUID(),
            kind: 'missed',
            misses,
            due_at: new Date(dueAt),
            counts_from: new Date(Math.max(dueAt, countsFrom)),
          })
          .onConflictDoNothing(),
      );
    }
    if (unrecorded.length) {
      const [lo, hi] = [unrecorded[0]!, unrecorded.at(-1)!];
      const span = lo === hi ? `${lo} ${lo === 1 ? 'interval' : 'intervals'}` : `${lo} to ${hi} intervals`;
      inserts.push(
        activityInsert(ctx, {
          userId: canary.user_id,
          canaryId: canary.id,
          kind: 'missed_checkin',
          source: 'system',
          at: new Date(now),
          summary: `Missed check-in on "${canaryLabel(canary.name)}" (${span} without a check-in).`,
        }),
      );
    }
  }

  if (inserts.length) {
    // The re-read rides in the same batch: it sees this run's rows, or a concurrent run's.
    const results = await runBatch(ctx.db, [...inserts, loadCycle()]);
    recorded = results.at(-1) as Transition[];
  }
  const marks = await emitCountedMisses(ctx, canary, recorded, now);

  const backlog = health.status === 'missed' && recorded.filter((t) => t.kind === 'missed').length < health.misses;
  const nextDueAt = backlog ? new Date(now + 1) : nextAttention(recorded, health, intervalMs, now);
  const timer =
    opts.armsTimer && canary.timer_due_at?.getTime() !== nextDueAt.getTime()
      ? [ctx.db.update(schema.canaries).set({ timer_due_at: nextDueAt }).where(eq(schema.canaries.id, canary.id))]
      : [];
  await runBatch(ctx.db, [...marks, ...timer]);
  return { nextDueAt };
}

/** The earliest future moment something is due: a reminder, a deadline, the next miss, or a miss that starts to count. */
function nextAttention(recorded: Transition[], health: ReturnType<typeof canaryHealth>, intervalMs: number, now: number): Date {
  const candidates: number[] = [];
  if (health.status === 'active') candidates.push(health.graceStartsMs);
  if (health.status !== 'missed') candidates.push(health.deadlineMs);
  else candidates.push(health.deadlineMs + health.misses * intervalMs);
  for (const t of recorded) {
    if (t.kind === 'missed' && !t.emitted_at && t.counts_from && t.counts_from.getTime() > now) candidates.push(t.counts_from.getTime());
  }
  return new Date(Math.min(...candidates.filter((c) => c > now)));
}
