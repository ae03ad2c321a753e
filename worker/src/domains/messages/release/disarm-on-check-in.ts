/**
 * What a check-in does to armed messages (DESIGN section 3): each one still inside its cancel window
 * goes back to scheduled (a rule may fire again later), with a transition saying why. Raw D1 statements
 * that join the check-in's single batch (one round trip, atomic with the check-in itself). `owner` is
 * SQL naming the user, its `?1`-style parameters shared with the check-in's statements.
 *
 * `now` is the check-in's own time: a check-in projected late (docs/decisions/canary-engine.md) still
 * disarms what was armed before it inside its window, and a duplicate or reordered one cannot disarm a
 * message armed after it.
 */
export const DISARMED_BY_CHECK_IN = 'Disarmed: you checked in before the cancel window ended.';

export function disarmOnCheckInStatements(db: D1Database, owner: { sql: string; params: unknown[] }, now: number, opts: { projected: boolean }) {
  const p = owner.params.length;
  const bind = (...extra: unknown[]) => [...owner.params, ...extra];
  // Applied as it happens (the Heartbeat), everything armed was armed before it. Applied later (a
  // projection), only what was armed strictly before its time: at the same millisecond the check-in counts
  // as first, so a duplicate or reordered projection never disarms what a later rule armed.
  const armedBefore = opts.projected ? ` AND armed_at < ?${p + 1}` : '';
  const armedInWindow = `sender_id = ${owner.sql} AND status = 'armed'${armedBefore} AND cancel_deadline > ?${p + 1}`;
  return [
    // The transitions first: the update changes the status they look for.
    db
      .prepare(
        `INSERT INTO message_transitions (id, message_id, from_status, to_status, cause, detail, dedupe_key, created_at)
         SELECT lower(hex(randomblob(16))), id, 'armed', 'scheduled', 'check_in', ?${p + 2}, NULL, ?${p + 1}
         FROM messages WHERE ${armedInWindow}`,
      )
      .bind(...bind(now, DISARMED_BY_CHECK_IN)),
    db
      .prepare(
        `UPDATE messages SET status = 'scheduled', armed_at = NULL, cancel_deadline = NULL, version = version + 1, updated_at = ?${p + 1}
         WHERE ${armedInWindow}`,
      )
      .bind(...bind(now)),
  ];
}
