import { CHECK_IN_SOURCE_WORDS, UNNAMED_CANARY } from '../../contracts/canary';
import type { CheckInProjection, ClockCheckIn } from '../../contracts/jobs';
import type { Bindings, ServiceContext } from '../../env';
import type { CheckInParticipant, CheckInRows } from './check-in-rows';

/**
 * What check-ins change in D1 — the queryable projection of what the canaries' Durable Objects hold
 * (docs/decisions/canary-engine.md): each canary's `last_check_in` (a token check-in's feed line stays in its
 * object's log: docs/decisions/check-in-history.md; the signed-in Heartbeat writes one line naming every canary), the
 * dead-man deadline and a scheduled dead-man deletion, the armed messages still inside their cancel
 * window (docs/server-rules.md "Messages, rules and release") and an open death report
 * (docs/server-rules.md "Guardians and death confirmation") — those three are the other domains' check-in
 * participants (wiring/check-in-participants.ts), which the service context carries. Written in SQL over the
 * check-ins as a relation (check-in-rows.ts): one batch applies one check-in or a whole queue delivery of
 * them, so the projection costs the same round trip and the same statements however busy it gets.
 *
 * Every statement is decided by each check-in's own time `at`, never by when it runs, so applying a
 * check-in late, twice or out of order — or together with others — has the effect it had when it
 * happened: `last_check_in` only moves forward, the Heartbeat's activity row is keyed by its owner, time and event id,
 * and the rest compare against `at`.
 */
/** What applying check-ins needs: D1 and the participants (wiring/check-in-participants.ts). */
export type CheckInContext = Pick<ServiceContext, 'env' | 'checkInParticipants'>;

export type CanaryCheckIn = Omit<CheckInProjection, 'type'>;

export interface CheckedInRow {
  id: string;
  user_id: string;
  interval_seconds: number;
  /** The calendar schedule (JSON) and pause end, for the new deadline (the Heartbeat's answer). */
  schedule?: string | null;
  paused_until?: number | null;
}

/** The SQL twin of CHECK_IN_SOURCE_WORDS for a source column or parameter (the words hold no quote). */
const sourceWords = (source: string) =>
  `CASE ${source} ${Object.entries(CHECK_IN_SOURCE_WORDS)
    .map(([k, w]) => `WHEN '${k}' THEN '${w}'`)
    .join(' ')} ELSE '(' || ${source} || ')' END`;
const CANARY_LABEL = `CASE WHEN trim(c.name) = '' THEN '${UNNAMED_CANARY}' ELSE c.name END`; // the SQL twin of canaryLabel (contracts/canary.ts)

/** Check-ins of single canaries (token check-ins the objects accepted): `b` the check-ins, `ci` their owners. */
function canaryRows(checkIns: readonly CanaryCheckIn[]): CheckInRows {
  return {
    with: `WITH b(canary_id, at, source, event_id, timer_due_at) AS MATERIALIZED (
             SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]') FROM json_each(?1)),
           ci(user_id, at) AS MATERIALIZED (SELECT c.user_id, b.at FROM b JOIN canaries c ON c.id = b.canary_id AND +c.active = 1)`,
    params: [JSON.stringify(checkIns.map((x) => [x.canary_id, x.at, x.source, x.event_id, x.timer_due_at ?? null]))],
  };
}

/**
 * A check-in batch: the canary's own statements, then each participant's, and what runs once it is
 * written (`results`: the results of `statements`, in order): each participant's `after` with its own.
 */
export interface CheckInBatch {
  statements: D1PreparedStatement[];
  after: (env: Bindings, results: D1Result[]) => Promise<void>;
}

function batchOf(db: D1Database, rows: CheckInRows, own: D1PreparedStatement[], participants: readonly CheckInParticipant[]): CheckInBatch {
  const theirs = participants.map((p) => p.statements(db, rows));
  return {
    statements: [...own, ...theirs.flat()],
    async after(env, results) {
      let at = own.length;
      for (const [i, participant] of participants.entries()) {
        const end = at + theirs[i]!.length;
        if (participant.after) await participant.after(env, results.slice(at, end));
        at = end;
      }
    },
  };
}

async function run(env: Bindings, batch: CheckInBatch): Promise<CheckedInRow[]> {
  const results = await env.DB.batch<CheckedInRow>(batch.statements);
  await batch.after(env, results);
  return results[0]?.results ?? [];
}

/**
 * The batch that applies token check-ins (any number, any canaries, duplicates allowed); its first
 * statement returns the canaries it moved. That statement
 * touches only canaries whose `last_check_in` moves forward: D1 counts an UPDATE that leaves a row as it was
 * as a row written, and a check-in can reach D1 twice (the Worker's send, then the copy its object sends with a
 * wake, its own batch, a settle or the reconciler's repair: docs/decisions/canary-engine.md), so an unguarded
 * update paid for each copy (docs/performance.md). The
 * latest check-in's `timer_due_at`, when its sender knew it (the Worker's send, from the object's answer), moves
 * D1's timer in the same row write (no index: one row either way).
 */
export function canaryCheckInBatch(db: D1Database, checkIns: readonly CanaryCheckIn[], participants: readonly CheckInParticipant[]): CheckInBatch {
  const rows = canaryRows(checkIns);
  return batchOf(
    db,
    rows,
    [
      db
        .prepare(
          `${rows.with} UPDATE canaries SET last_check_in = (SELECT max(b.at) FROM b WHERE b.canary_id = canaries.id),
           timer_due_at = coalesce((SELECT b.timer_due_at FROM b WHERE b.canary_id = canaries.id ORDER BY b.at DESC LIMIT 1), timer_due_at)
         WHERE id IN (SELECT canary_id FROM b) AND +active = 1 AND last_check_in < (SELECT max(b.at) FROM b WHERE b.canary_id = canaries.id)
         RETURNING id, user_id, interval_seconds`,
        )
        .bind(...rows.params),
    ],
    participants,
  );
}

/**
 * Applies token check-ins to D1 in one batch (one round trip, atomic), then the participants' `after`.
 * Returns the canaries it moved.
 */
export async function applyCanaryCheckIns(ctx: CheckInContext, checkIns: readonly CanaryCheckIn[]): Promise<CheckedInRow[]> {
  if (!checkIns.length) return [];
  return run(ctx.env, canaryCheckInBatch(ctx.env.DB, checkIns, ctx.checkInParticipants));
}

/**
 * The signed-in Heartbeat: one check-in for every active canary of a user, applied in one batch with
 * one activity row naming them all. Returns the canaries it moved.
 */
export async function applyUserCheckIn(ctx: CheckInContext, userId: string, entry: ClockCheckIn): Promise<CheckedInRow[]> {
  const db = ctx.env.DB;
  const rows: CheckInRows = { with: 'WITH ci(user_id, at) AS (SELECT ?1, ?2)', params: [userId, entry.at] };
  return run(
    ctx.env,
    batchOf(
      db,
      rows,
      [
        db
          .prepare(
            'UPDATE canaries SET last_check_in = max(last_check_in, ?2) WHERE user_id = ?1 AND active = 1 RETURNING id, user_id, interval_seconds, schedule, paused_until',
          )
          .bind(userId, entry.at),
        db
          .prepare(
            `INSERT INTO activity (id, user_id, canary_id, kind, source, summary, created_at)
           SELECT ?4, ?1, CASE WHEN count(*) = 1 THEN max(c.id) END, 'check_in', ?3,
                  CASE WHEN count(*) = 0 THEN 'Checked in ' || ${sourceWords('?3')} || '.'
                       ELSE 'Checked in ' || ${sourceWords('?3')} || ': ' || group_concat('"' || ${CANARY_LABEL} || '"', ', ') || '.' END, ?2
           FROM canaries c WHERE c.user_id = ?1 AND c.active = 1
           ON CONFLICT DO NOTHING`,
          )
          .bind(userId, entry.at, entry.source, entry.event_id),
      ],
      ctx.checkInParticipants,
    ),
  );
}

/**
 * The timers the Heartbeat's check-in moved in the canaries' objects (`timers`: canary id → new timer), written
 * into D1 after its batch, which could not know them: D1's copy then holds where each alarm now is, and the
 * reconciler's scan for lost timers finds nothing overdue (docs/decisions/canary-engine.md "A check-in moves
 * the timer"). Only while that check-in is still the canary's latest in D1: a later one carried its own.
 */
export async function moveTimersAfterHeartbeat(ctx: CheckInContext, at: number, timers: ReadonlyMap<string, number>): Promise<void> {
  if (!timers.size) return;
  await ctx.env.DB.prepare(
    `UPDATE canaries SET timer_due_at = n.timer_due_at
     FROM (SELECT json_extract(value, '$[0]') AS canary_id, json_extract(value, '$[1]') AS timer_due_at FROM json_each(?1)) AS n
     WHERE canaries.id = n.canary_id AND canaries.last_check_in = ?2 AND canaries.timer_due_at IS NOT n.timer_due_at`,
  )
    .bind(JSON.stringify([...timers]), at)
    .run();
}
