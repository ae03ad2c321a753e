import type { Bindings } from '../../../env';
import { returnedIds } from '../../../lib/db-batch';
import { type CheckInRows, nextParam } from '../../canary/check-in-rows';
import { syncReleaseTimer } from './release-timer';

/**
 * What check-ins do to armed messages (docs/server-rules.md "Messages, rules and release"): each one still
 * inside its cancel window at a check-in goes back to scheduled (a rule may fire again later), with a
 * transition saying why, dated by the first check-in that disarmed it. Raw D1 statements over the batch's check-ins
 * (canary/check-in-rows.ts) that join the check-in's single batch (one round trip, atomic with it).
 *
 * Each check-in is judged by its own time: one projected late (docs/decisions/canary-engine.md) still
 * disarms what was armed before it inside its window, and a duplicate or reordered one cannot disarm a
 * message armed after it.
 */
export const DISARMED_BY_CHECK_IN = 'Disarmed: you checked in before the cancel window ended.';

export function disarmOnCheckInStatements(db: D1Database, rows: CheckInRows) {
  // The first check-in inside the message's window, or NULL.
  const disarmedAt = (m: string) => `(SELECT min(ci.at) FROM ci WHERE ci.user_id = ${m}.sender_id AND ${m}.armed_at <= ci.at AND ${m}.cancel_deadline > ci.at)`;
  const armed = (m: string) => `${m}.sender_id IN (SELECT user_id FROM ci) AND +${m}.status = 'armed'`;
  return [
    // The transitions first: the update changes the status they look for.
    db
      .prepare(
        `${rows.with} INSERT INTO message_transitions (id, message_id, from_status, to_status, cause, detail, dedupe_key, created_at)
         SELECT lower(hex(randomblob(16))), id, 'armed', 'scheduled', 'check_in', ${nextParam(rows, 1)}, NULL, at
         FROM (SELECT m.id, ${disarmedAt('m')} AS at FROM messages m WHERE ${armed('m')}) WHERE at IS NOT NULL`,
      )
      .bind(...rows.params, DISARMED_BY_CHECK_IN),
    db
      .prepare(
        `${rows.with} UPDATE messages SET status = 'scheduled', armed_at = NULL, cancel_deadline = NULL, version = version + 1,
           updated_at = ${disarmedAt('messages')}
         WHERE ${armed('messages')} AND ${disarmedAt('messages')} IS NOT NULL RETURNING id`,
      )
      .bind(...rows.params),
  ];
}

/**
 * After the check-in's batch: each message it disarmed has its clock run now, since another of its rules
 * may already be due (a fixed date that came while it was armed fires at once, not when the ended window
 * would have). `results`: the results of disarmOnCheckInStatements, in order (wiring/check-in-participants.ts).
 */
export async function afterDisarm(env: Bindings, results: D1Result[]): Promise<void> {
  await Promise.all(returnedIds(results.slice(1, 2)).map((id) => syncReleaseTimer(env, id)));
}
