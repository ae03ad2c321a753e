import { UNNAMED_CANARY } from '../../contracts/canary';
import type { CheckInProjection } from '../../contracts/jobs';
import type { ServiceContext } from '../../env';
import { deadmanCheckInStatements } from '../deadman/deadman-check-in';
import { afterRefutation, REFUTE_STATEMENTS, refuteOnCheckInStatements } from '../guardian/refute-on-check-in';
import { disarmOnCheckInStatements } from '../messages/release/disarm-on-check-in';

/**
 * What a check-in changes in D1 — the queryable projection of what the canary's Durable Object holds
 * (docs/decisions/canary-engine.md): the canary's `last_check_in`, the activity row, the dead-man
 * deadline and a scheduled dead-man deletion, the armed messages still inside their cancel window
 * (DESIGN section 3) and an open death report (DESIGN section 5). Written in SQL because the statements
 * find their owner inside the batch (drizzle's batch cannot express these INSERT … SELECTs).
 *
 * Every statement is decided by the check-in's own time `at`, never by when it runs, so applying a
 * check-in late, twice or out of order has the effect it had when it happened: `last_check_in` only
 * moves forward, the activity row is keyed by the event id, and the rest compare against `at`.
 */
export const CHECK_IN_STATEMENTS = 11;

/** Whose check-in: one canary (a token) or every active canary of a user (the signed-in Heartbeat). */
export type CheckInTarget = { canaryId: string } | { userId: string };

export interface CheckedInRow {
  id: string;
  user_id: string;
  interval_seconds: number;
}

// The SQL twin of canaryLabel (contracts/canary.ts).
const ACTIVITY_SUMMARY = `'Checked in (' || ?3 || '): ' || group_concat('"' || CASE WHEN trim(name) = '' THEN '${UNNAMED_CANARY}' ELSE name END || '"', ', ') || '.'`;

export function checkInStatements(db: D1Database, target: CheckInTarget, entry: Omit<CheckInProjection, 'type' | 'canary_id'>): D1PreparedStatement[] {
  const { at, source, event_id } = entry;
  if ('canaryId' in target) {
    const owner = { sql: '(SELECT user_id FROM canaries WHERE id = ?1 AND active = 1)', params: [target.canaryId] };
    return [
      db
        .prepare('UPDATE canaries SET last_check_in = max(last_check_in, ?2) WHERE id = ?1 AND active = 1 RETURNING id, user_id, interval_seconds')
        .bind(target.canaryId, at),
      db
        .prepare(
          `INSERT INTO activity (id, user_id, canary_id, kind, source, summary, created_at)
           SELECT ?4, user_id, id, 'check_in', ?3, ${ACTIVITY_SUMMARY}, ?2 FROM canaries WHERE id = ?1 AND active = 1 GROUP BY user_id
           ON CONFLICT (id) DO NOTHING`,
        )
        .bind(target.canaryId, at, source, event_id),
      ...deadmanCheckInStatements(db, owner, at, crypto.randomUUID()),
      ...disarmOnCheckInStatements(db, owner, at, { projected: true }),
      ...refuteOnCheckInStatements(db, owner, at),
    ];
  }
  const owner = { sql: '?1', params: [target.userId] };
  return [
    db
      .prepare('UPDATE canaries SET last_check_in = max(last_check_in, ?2) WHERE user_id = ?1 AND active = 1 RETURNING id, user_id, interval_seconds')
      .bind(target.userId, at),
    db
      .prepare(
        `INSERT INTO activity (id, user_id, canary_id, kind, source, summary, created_at)
         SELECT ?4, ?1, CASE WHEN count(*) = 1 THEN max(id) END, 'check_in', ?3,
                CASE WHEN count(*) = 0 THEN 'Checked in (' || ?3 || ').' ELSE ${ACTIVITY_SUMMARY} END, ?2
         FROM canaries WHERE user_id = ?1 AND active = 1
         ON CONFLICT (id) DO NOTHING`,
      )
      .bind(target.userId, at, source, event_id),
    ...deadmanCheckInStatements(db, owner, at, crypto.randomUUID()),
    ...disarmOnCheckInStatements(db, owner, at, { projected: false }),
    ...refuteOnCheckInStatements(db, owner, at),
  ];
}

/**
 * Applies check-ins to D1 in one batch (one round trip, atomic) and queues the guardian notices any
 * refutation wrote. Returns, per check-in, the canaries it moved.
 */
export async function applyCheckIns(
  ctx: Pick<ServiceContext, 'env'>,
  items: { target: CheckInTarget; entry: Omit<CheckInProjection, 'type' | 'canary_id'> }[],
): Promise<CheckedInRow[][]> {
  if (!items.length) return [];
  const db = ctx.env.DB;
  const results = await db.batch<CheckedInRow>(items.flatMap(({ target, entry }) => checkInStatements(db, target, entry)));
  const moved: CheckedInRow[][] = [];
  for (let i = 0; i < items.length; i++) {
    const own = results.slice(i * CHECK_IN_STATEMENTS, (i + 1) * CHECK_IN_STATEMENTS);
    moved.push(own[0]?.results ?? []);
    await afterRefutation(ctx, own.slice(-REFUTE_STATEMENTS));
  }
  return moved;
}
