/**
 * What a check-in at `now` does to the dead-man's switch: its deadline becomes at least now + hours, and
 * a deletion it had scheduled is cancelled (the owner is evidently alive), with an activity row saying
 * so. Raw D1 statements, so they join the check-in's single batch (one round trip; docs/performance.md).
 * `owner` is SQL naming the user: `?1`-style parameters are shared with the check-in's statements.
 *
 * A check-in projected late, twice or out of order (docs/decisions/canary-engine.md) never moves the
 * deadline back. It still cancels a scheduled deletion, even one scheduled after it: cancelling is the
 * safe side of a deletion, and a switch whose deadline has really passed schedules it again, with a
 * fresh day of notice.
 */
export function deadmanCheckInStatements(db: D1Database, owner: { sql: string; params: unknown[] }, now: number, activityId: string) {
  const p = owner.params.length;
  const bind = (...extra: unknown[]) => [...owner.params, ...extra];
  const scheduledDeadmanDeletion = `user_id = ${owner.sql} AND status = 'scheduled' AND reason = 'deadman'`;
  return [
    db
      .prepare(`UPDATE deadman_switches SET deadline = max(deadline, ?${p + 1} + CAST(hours * 3600000 AS INTEGER)) WHERE user_id = ${owner.sql}`)
      .bind(...bind(now)),
    // The activity row first: the next statement changes the status this one looks for.
    db
      .prepare(
        `INSERT INTO activity (id, user_id, canary_id, kind, source, summary, created_at)
         SELECT ?${p + 2}, user_id, NULL, 'deadman_cancelled', 'system', 'Your check-in cancelled the scheduled deletion of your account.', ?${p + 1}
         FROM scheduled_deletions WHERE ${scheduledDeadmanDeletion} LIMIT 1`,
      )
      .bind(...bind(now, activityId)),
    db
      .prepare(`UPDATE scheduled_deletions SET status = 'cancelled', done_at = max(created_at, ?${p + 1}) WHERE ${scheduledDeadmanDeletion}`)
      .bind(...bind(now)),
  ];
}
