import type { Projection } from '../../contracts/jobs';
import type { Bindings } from '../../env';
import { log } from '../../lib/logger';
import { afterRefutation, REFUTE_STATEMENTS } from '../guardian/refute-on-check-in';
import { CHECK_IN_STATEMENTS, checkInStatements } from './check-in-projection';
import { wakeStatements } from './wake-projection';

/** D1 allows 1,000 queries per invocation; a delivery past this budget leaves the rest for a retry. */
const QUERY_BUDGET = 900;

interface Unit {
  statements: D1PreparedStatement[];
  /** After the batch: the guardian notices a check-in's refutation wrote are queued. */
  after?: (results: D1Result[]) => Promise<void>;
}

function unitOf(env: Bindings, job: Projection): Unit {
  if (job.type === 'canary_wake') return { statements: wakeStatements(env.DB, job) };
  const statements = checkInStatements(env.DB, { canaryId: job.canary_id }, job);
  return { statements, after: (results) => afterRefutation({ env }, results.slice(CHECK_IN_STATEMENTS - REFUTE_STATEMENTS, CHECK_IN_STATEMENTS)) };
}

async function run(env: Bindings, units: Unit[]) {
  const results = await env.DB.batch(units.flatMap((u) => u.statements));
  let at = 0;
  for (const u of units) {
    const own = results.slice(at, at + u.statements.length);
    at += u.statements.length;
    await u.after?.(own);
  }
}

/**
 * Writes a delivery of projections into D1 in one batch (one round trip, atomic). If that batch fails,
 * each projection is tried alone, so one bad projection cannot hold the others back. Returns the
 * indexes written (ack) and those to retry.
 */
export async function applyProjections(env: Bindings, jobs: Projection[]): Promise<{ done: number[]; retry: number[] }> {
  const units = jobs.map((job) => unitOf(env, job));
  const taken: number[] = [];
  const retry: number[] = [];
  let queries = 0;
  units.forEach((u, i) => {
    if (queries + u.statements.length > QUERY_BUDGET && taken.length) retry.push(i);
    else {
      taken.push(i);
      queries += u.statements.length;
    }
  });
  try {
    await run(
      env,
      taken.map((i) => units[i]!),
    );
    return { done: taken, retry };
  } catch (err) {
    log.warn('projection batch failed; writing each alone', { count: taken.length, error: String(err) });
  }
  const done: number[] = [];
  for (const i of taken) {
    try {
      await run(env, [units[i]!]);
      done.push(i);
    } catch (err) {
      log.error('projection failed; will retry', { type: jobs[i]!.type, canary_id: jobs[i]!.canary_id, error: String(err) });
      retry.push(i);
    }
  }
  return { done, retry };
}
