import type { CheckInProjection, Projection, WakeProjection } from '../../contracts/jobs';
import { log } from '../../lib/logger';
import { type CheckInContext, canaryCheckInBatch } from './check-in-projection';
import { wakeStatements } from './wake-projection';

/**
 * Writes projections (check-ins and wakes, any mix; a wake's own check-ins with the others) into D1 in one batch: one round trip, atomic, and
 * the same statements however many there are, since both kinds are written over their rows as a relation.
 * Then the check-in participants' `after` (wiring/check-in-participants.ts: guardians told of a refutation,
 * the clocks of disarmed messages run).
 */
async function write(ctx: CheckInContext, jobs: readonly Projection[]) {
  const db = ctx.env.DB;
  const wakes = jobs.filter((j): j is WakeProjection => j.type === 'canary_wake');
  const checkIns = [
    ...jobs.filter((j): j is CheckInProjection => j.type === 'canary_check_in'),
    ...wakes.flatMap((w) => (w.check_ins ?? []).map((c): CheckInProjection => ({ type: 'canary_check_in', canary_id: w.canary_id, ...c }))),
  ];
  const checkIn = checkIns.length ? canaryCheckInBatch(db, checkIns, ctx.checkInParticipants) : null;
  const statements = [...(checkIn?.statements ?? []), ...(wakes.length ? wakeStatements(db, wakes) : [])];
  if (!statements.length) return;
  const results = await db.batch(statements);
  if (checkIn) await checkIn.after(ctx.env, results.slice(0, checkIn.statements.length));
}

/**
 * The PROJECTIONS queue's work: a delivery written in one batch. If that batch fails, each projection is
 * tried alone, so one bad projection cannot hold the others back. Returns the indexes written (ack) and
 * those to retry; every write is idempotent, so a retry or a redelivery changes nothing twice.
 */
export async function applyProjections(ctx: CheckInContext, jobs: readonly Projection[]): Promise<{ done: number[]; retry: number[] }> {
  const all = jobs.map((_, i) => i);
  try {
    await write(ctx, jobs);
    return { done: all, retry: [] };
  } catch (err) {
    if (jobs.length === 1) {
      log.error('projection failed; will retry', { type: jobs[0]!.type, canary_id: jobs[0]!.canary_id, error: String(err) });
      return { done: [], retry: all };
    }
    log.warn('projection batch failed; writing each alone', { count: jobs.length, error: String(err) });
  }
  const done: number[] = [];
  const retry: number[] = [];
  for (const i of all) {
    try {
      await write(ctx, [jobs[i]!]);
      done.push(i);
    } catch (err) {
      log.error('projection failed; will retry', { type: jobs[i]!.type, canary_id: jobs[i]!.canary_id, error: String(err) });
      retry.push(i);
    }
  }
  return { done, retry };
}
