import type { WakeProjection } from '../../contracts/jobs';
import type { Bindings } from '../../env';
import { TRANSITION_COLUMNS } from './plan-wake';

/** Timer events per projection message: keeps a message well under the queue's 128 KB. */
export const WAKE_ROWS_PER_MESSAGE = 40;

const COLUMNS = ['canary_id', 'user_id', ...TRANSITION_COLUMNS] as const;
const fromJson = (columns: readonly string[]) => columns.map((c, i) => `json_extract(value, '$[${i}]') AS ${c}`).join(', ');

/**
 * The D1 statements of a delivery of wake projections, written once over the wakes as a relation (as
 * the check-ins are, check-in-rows.ts): the same four statements for one wake or a hundred. Idempotent —
 * a timer event is inserted once by its unique key (canary, cycle, kind, misses), an emission mark, a
 * warning's delivery and the instant a miss starts to count only fill what is empty, an activity row is inserted once by its key (owner, time, id) — and a projection that arrives
 * after its canary (or its owner's account) was deleted writes nothing.
 */
export function wakeStatements(db: D1Database, wakes: readonly WakeProjection[]): D1PreparedStatement[] {
  const transitions = wakes.flatMap((w) => w.transitions.map((t) => COLUMNS.map((c) => t[c])));
  const activities = wakes.flatMap((w) => w.activities.map((a) => [a.id, a.user_id, a.canary_id, a.kind, a.source, a.summary, a.created_at]));
  // Several wakes of one canary in a delivery: the latest timer wins (a wake only moves it later). A timer
  // already in D1 is not written again: D1 counts an update that changes nothing as a row written, and a
  // warning's report, a settle and the reconciler re-send the timer unchanged.
  const timers = new Map<string, number>();
  for (const w of wakes) if (w.timer_due_at !== undefined) timers.set(w.canary_id, Math.max(timers.get(w.canary_id) ?? w.timer_due_at, w.timer_due_at));
  const t = `WITH t AS MATERIALIZED (SELECT ${fromJson(COLUMNS)} FROM json_each(?1))`;
  return [
    db
      .prepare(
        `${t} INSERT OR IGNORE INTO canary_transitions (${COLUMNS.join(', ')})
         SELECT ${COLUMNS.join(', ')} FROM t WHERE EXISTS (SELECT 1 FROM canaries c WHERE c.id = t.canary_id)`,
      )
      .bind(JSON.stringify(transitions)),
    db
      .prepare(
        `${t} UPDATE canary_transitions AS x
           SET emitted_at = coalesce(x.emitted_at, t.emitted_at),
               counts_from = coalesce(x.counts_from, t.counts_from),
               delivery_channel = CASE WHEN x.delivered_at IS NULL AND t.delivered_at IS NOT NULL THEN t.delivery_channel ELSE x.delivery_channel END,
               delivery_status = CASE WHEN x.delivered_at IS NULL AND t.delivered_at IS NOT NULL THEN t.delivery_status ELSE x.delivery_status END,
               delivered_at = coalesce(x.delivered_at, t.delivered_at)
         FROM t
         WHERE x.canary_id = t.canary_id AND x.cycle_deadline = t.cycle_deadline AND x.kind = t.kind AND x.misses = t.misses
           AND ((x.emitted_at IS NULL AND t.emitted_at IS NOT NULL) OR (x.counts_from IS NULL AND t.counts_from IS NOT NULL)
             OR (x.delivered_at IS NULL AND t.delivered_at IS NOT NULL))`,
      )
      .bind(JSON.stringify(transitions)),
    db
      .prepare(
        `WITH a AS MATERIALIZED (SELECT ${fromJson(['id', 'user_id', 'canary_id', 'kind', 'source', 'summary', 'created_at'])} FROM json_each(?1))
         INSERT OR IGNORE INTO activity (id, user_id, canary_id, kind, source, summary, created_at)
         SELECT id, user_id, canary_id, kind, source, summary, created_at FROM a WHERE EXISTS (SELECT 1 FROM canaries c WHERE c.id = a.canary_id)`,
      )
      .bind(JSON.stringify(activities)),
    db
      .prepare(
        `WITH n AS MATERIALIZED (SELECT ${fromJson(['canary_id', 'timer_due_at'])} FROM json_each(?1))
         UPDATE canaries SET timer_due_at = n.timer_due_at FROM n
         WHERE canaries.id = n.canary_id AND canaries.timer_due_at IS NOT n.timer_due_at`,
      )
      .bind(JSON.stringify([...timers])),
  ];
}

/** Writes wake projections now (the reconciler, settle and tests; the alarm's path queues them). */
export async function applyWakeProjections(env: Pick<Bindings, 'DB'>, wakes: readonly WakeProjection[]): Promise<void> {
  if (wakes.length) await env.DB.batch(wakeStatements(env.DB, wakes));
}
