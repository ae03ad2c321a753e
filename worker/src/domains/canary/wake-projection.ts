import type { WakeProjection } from '../../contracts/jobs';
import type { Bindings } from '../../env';
import { TRANSITION_COLUMNS } from './plan-wake';

/** Timer events per projection message: 2 statements each keeps a message small and its batch short. */
export const WAKE_ROWS_PER_MESSAGE = 40;

// A projection that arrives after its canary (or its owner's account) was deleted writes nothing.
const CANARY_EXISTS_1 = 'EXISTS (SELECT 1 FROM canaries WHERE id = ?1)';
const CANARY_EXISTS_3 = 'EXISTS (SELECT 1 FROM canaries WHERE id = ?3)';

/** The D1 statements of one wake's projection (idempotent: applying it twice changes nothing twice). */
export function wakeStatements(db: D1Database, p: WakeProjection): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  for (const t of p.transitions) {
    statements.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO canary_transitions (canary_id, user_id, ${TRANSITION_COLUMNS.join(', ')})
           SELECT ?1, ?2, ${TRANSITION_COLUMNS.map((_, i) => `?${i + 3}`).join(', ')} WHERE ${CANARY_EXISTS_1}`,
        )
        .bind(t.canary_id, t.user_id, ...TRANSITION_COLUMNS.map((c) => t[c])),
    );
    if (t.emitted_at != null) {
      statements.push(
        db
          .prepare(
            'UPDATE canary_transitions SET emitted_at = ?5 WHERE canary_id = ?1 AND cycle_deadline = ?2 AND kind = ?3 AND misses = ?4 AND emitted_at IS NULL',
          )
          .bind(t.canary_id, t.cycle_deadline, t.kind, t.misses, t.emitted_at),
      );
    }
  }
  for (const a of p.activities) {
    statements.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO activity (id, user_id, canary_id, kind, source, summary, created_at) SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE ${CANARY_EXISTS_3}`,
        )
        .bind(a.id, a.user_id, a.canary_id, a.kind, a.source, a.summary, a.created_at),
    );
  }
  if (p.timer_due_at !== undefined) {
    statements.push(db.prepare('UPDATE canaries SET timer_due_at = ?2 WHERE id = ?1').bind(p.canary_id, p.timer_due_at));
  }
  return statements;
}

/** Writes one wake's projection now (the reconciler, settle and tests; the alarm path queues it). */
export async function applyWakeProjection(env: Pick<Bindings, 'DB'>, p: WakeProjection): Promise<void> {
  const statements = wakeStatements(env.DB, p);
  if (statements.length) await env.DB.batch(statements);
}
