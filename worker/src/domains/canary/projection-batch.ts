import type { CheckInProjection, Projection, WakeProjection } from '../../contracts/jobs';
import type { Bindings } from '../../env';
import { log } from '../../lib/logger';
import { afterCheckIns, CHECK_IN_STATEMENTS, canaryCheckInStatements } from './check-in-projection';
import { wakeStatements } from './wake-projection';

/**
 * Writes projections (check-ins and wakes, any mix; a wake's own check-ins with the others) into D1 in one batch: one round trip, atomic, and
 * the same fifteen statements at most however many there are, since both kinds are written over their
 * rows as a relation. Then queues the guardian notices any refutation wrote and runs the clocks of the
 * messages a check-in disarmed.
 */
async function write(env: Bindings, jobs: readonly Projection[]) {
  const wakes = jobs.filter((j): j is WakeProjection => j.type === 'canary_wake');
  const checkIns = [
    ...jobs.filter((j): j is CheckInProjection => j.type === 'canary_check_in'),
    ...wakes.flatMap((w) => (w.check_ins ?? []).map((c): CheckInProjection => ({ type: 'canary_check_in', canary_id: w.canary_id, ...c }))),
  ];
  const statements = [...(checkIns.length ? canaryCheckInStatements(env.DB, checkIns) : []), ...(wakes.length ? wakeStatements(env.DB, wakes) : [])];
  if (!statements.length) return;
  const results = await env.DB.batch(statements);
  if (checkIns.length) await afterCheckIns({ env }, results.slice(0, CHECK_IN_STATEMENTS));
}

/**
 * The PROJECTIONS queue's work: a delivery written in one batch. If that batch fails, each projection is
 * tried alone, so one bad projection cannot hold the others back. Returns the indexes written (ack) and
 * those to retry; every write is idempotent, so a retry or a redelivery changes nothing twice.
 */
export async function applyProjections(env: Bindings, jobs: readonly Projection[]): Promise<{ done: number[]; retry: number[] }> {
  const all = jobs.map((_, i) => i);
  try {
    await write(env, jobs);
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
      await write(env, [jobs[i]!]);
      done.push(i);
    } catch (err) {
      log.error('projection failed; will retry', { type: jobs[i]!.type, canary_id: jobs[i]!.canary_id, error: String(err) });
      retry.push(i);
    }
  }
  return { done, retry };
}
