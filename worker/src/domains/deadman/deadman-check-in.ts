import { type CheckInRows, nextParam } from '../canary/check-in-rows';
import { periodSql } from '@afterword/db/schema';

/**
 * What check-ins do to the dead-man's switch: a deletion it had scheduled is cancelled (the owner is evidently
 * alive), with an activity row saying so. Raw D1 statements over the batch's check-ins (canary/check-in-rows.ts), so
 * they join the check-in's single batch (one round trip; docs/performance.md).
 *
 * The deadline is not written for an owner with an active canary: it is the later of the stored one and the
 * owner's latest check-in on their canaries + hours (deadman-deadline.ts), and the stored one is moved only when the
 * cron finds it passed (process-deadman.ts) — one write per switch period instead of one per check-in
 * (docs/decisions/deadman-deadline.md).
 *
 * A check-in projected late, twice or out of order (docs/decisions/canary-engine.md) still cancels a scheduled
 * deletion, even one scheduled after it: cancelling is the safe side of a deletion, and a switch whose deadline has
 * really passed schedules it again, with a fresh day of notice.
 */
export function deadmanCheckInStatements(db: D1Database, rows: CheckInRows) {
  const latest = (table: string) => `(SELECT max(ci.at) FROM ci WHERE ci.user_id = ${table}.user_id)`;
  const scheduledDeadmanDeletion = `user_id IN (SELECT user_id FROM ci) AND +status = 'scheduled' AND reason = 'deadman'`;
  const moved = `${latest('deadman_switches')} + ${periodSql()}`;
  return [
    // An owner with no active canary keeps no check-in in one (a Heartbeat with none, which the switch still counts):
    // for them the check-in writes the deadline itself, as every check-in used to.
    db
      .prepare(
        `${rows.with} UPDATE deadman_switches SET deadline = ${moved}
         WHERE user_id IN (SELECT user_id FROM ci) AND deadline < ${moved}
           AND NOT EXISTS (SELECT 1 FROM canaries c WHERE c.user_id = deadman_switches.user_id AND c.active = 1)`,
      )
      .bind(...rows.params),
    // The activity row first: the next statement changes the status this one looks for.
    db
      .prepare(
        `${rows.with} INSERT INTO activity (id, user_id, canary_id, kind, source, summary, created_at)
         SELECT lower(hex(randomblob(16))), user_id, NULL, 'deadman_cancelled', 'system', ${nextParam(rows, 1)}, ${latest('scheduled_deletions')}
         FROM scheduled_deletions WHERE ${scheduledDeadmanDeletion} GROUP BY user_id`,
      )
      .bind(...rows.params, DEADMAN_CANCELLED),
    db
      .prepare(
        `${rows.with} UPDATE scheduled_deletions SET status = 'cancelled', done_at = max(created_at, ${latest('scheduled_deletions')})
         WHERE ${scheduledDeadmanDeletion}`,
      )
      .bind(...rows.params),
  ];
}

export const DEADMAN_CANCELLED = 'Your check-in cancelled the scheduled deletion of your account.';
