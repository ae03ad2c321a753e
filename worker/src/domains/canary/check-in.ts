import { UNNAMED_CANARY, type CHECK_IN_SOURCES, type TCheckInResult } from '../../contracts/canary';
import { graceMs } from '../../contracts/canary-health';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { fromHex } from '../../lib/encoding';
import { constantTimeEqual } from '../../lib/secrets';
import { deadmanCheckInStatements } from '../deadman/deadman-check-in';
import { afterRefutation, REFUTE_STATEMENTS, refuteOnCheckInStatements } from '../guardian/refute-on-check-in';
import { disarmOnCheckInStatements } from '../messages/release/disarm-on-check-in';
import { canaryTokenHash, isWellFormedCanaryToken } from './canary-token';
import { armCanaryTimer } from './canary-timer';

export type CheckInSource = (typeof CHECK_IN_SOURCES)[number];

/** One detail for every token that does not open a canary (unknown, deleted, malformed). */
export const UNKNOWN_TOKEN = 'No canary has this token';

interface CheckedIn {
  id: string;
  user_id: string;
  name: string;
  interval_seconds: number;
  timer_due_at: number | null;
  token_hash: string;
}

/*
 * A check-in is the hottest write of the product, so it is one D1 batch — one round trip, atomic: the
 * canaries' new cycle (UPDATE … RETURNING), the activity row, the dead-man deadline and the cancelling
 * of a scheduled dead-man deletion, the disarming of every armed message still inside its cancel
 * window (DESIGN section 3), and the refutation of an open death report (DESIGN section 5). Written in SQL rather than drizzle because the statements select their
 * owner inside the batch (drizzle's batch cannot express INSERT … SELECT with bound values here).
 */
const RETURNING = 'RETURNING id, user_id, name, interval_seconds, timer_due_at, token_hash';
// The SQL twin of canaryLabel (contracts/canary.ts).
const ACTIVITY_SUMMARY = `'Checked in (' || ?3 || '): ' || group_concat('"' || CASE WHEN trim(name) = '' THEN '${UNNAMED_CANARY}' ELSE name END || '"', ', ') || '.'`;

/** POST /api/canary/checkin {token} and POST /api/ping/{token}: the token alone authorises it. */
export async function checkInWithToken(ctx: ServiceContext, token: string, source: CheckInSource): Promise<TCheckInResult> {
  if (!isWellFormedCanaryToken(token)) throw new AppError('NOT_FOUND', UNKNOWN_TOKEN);
  const hash = await canaryTokenHash(token);
  const now = ctx.now().getTime();
  const db = ctx.env.DB;
  const owner = { sql: '(SELECT user_id FROM canaries WHERE token_hash = ?1 AND active = 1)', params: [hash] };
  const results = await db.batch<CheckedIn>([
    db.prepare(`UPDATE canaries SET last_check_in = ?2 WHERE token_hash = ?1 AND active = 1 ${RETURNING}`).bind(hash, now),
    db
      .prepare(
        `INSERT INTO activity (id, user_id, canary_id, kind, source, summary, created_at)
         SELECT ?4, user_id, id, 'check_in', ?3, ${ACTIVITY_SUMMARY}, ?2 FROM canaries WHERE token_hash = ?1 AND active = 1 GROUP BY user_id`,
      )
      .bind(hash, now, source, crypto.randomUUID()),
    ...deadmanCheckInStatements(db, owner, now, crypto.randomUUID()),
    ...disarmOnCheckInStatements(db, owner, now),
    ...refuteOnCheckInStatements(db, owner, now),
  ]);
  const canary = results[0]?.results[0];
  // Found by its hash through the index; compared again in constant time so no path leaks timing.
  if (!canary || !constantTimeEqual(fromHex(canary.token_hash), fromHex(hash))) throw new AppError('NOT_FOUND', UNKNOWN_TOKEN);
  await afterRefutation(ctx, results.slice(-REFUTE_STATEMENTS));
  return afterCheckIn(ctx, [canary], now);
}

/** The Heartbeat: a signed-in user checks in every active canary at once (works with none, for the dead-man). */
export async function checkInAll(ctx: ServiceContext, userId: string, source: CheckInSource): Promise<TCheckInResult> {
  const now = ctx.now().getTime();
  const db = ctx.env.DB;
  const results = await db.batch<CheckedIn>([
    db.prepare(`UPDATE canaries SET last_check_in = ?2 WHERE user_id = ?1 AND active = 1 ${RETURNING}`).bind(userId, now),
    db
      .prepare(
        `INSERT INTO activity (id, user_id, canary_id, kind, source, summary, created_at)
         SELECT ?4, ?1, CASE WHEN count(*) = 1 THEN max(id) END, 'check_in', ?3,
                CASE WHEN count(*) = 0 THEN 'Checked in (' || ?3 || ').' ELSE ${ACTIVITY_SUMMARY} END, ?2
         FROM canaries WHERE user_id = ?1 AND active = 1`,
      )
      .bind(userId, now, source, crypto.randomUUID()),
    ...deadmanCheckInStatements(db, { sql: '?1', params: [userId] }, now, crypto.randomUUID()),
    ...disarmOnCheckInStatements(db, { sql: '?1', params: [userId] }, now),
    ...refuteOnCheckInStatements(db, { sql: '?1', params: [userId] }, now),
  ]);
  await afterRefutation(ctx, results.slice(-REFUTE_STATEMENTS));
  return afterCheckIn(ctx, results[0]?.results ?? [], now);
}

/**
 * A check-in only moves deadlines later, so an armed timer merely wakes early and re-arms. Re-arm now
 * only where the new cycle's first entry (the grace reminder) comes before the armed wake.
 */
async function afterCheckIn(ctx: ServiceContext, canaries: CheckedIn[], now: number): Promise<TCheckInResult> {
  await Promise.all(
    canaries
      .filter((c) => c.timer_due_at == null || c.timer_due_at > now + c.interval_seconds * 1000 - graceMs(c.interval_seconds))
      .map((c) => armCanaryTimer(ctx.env, c.id)),
  );
  return {
    checked_in: canaries.length,
    last_check_in: new Date(now).toISOString(),
    canaries: canaries.map((c) => ({ id: c.id, deadline: new Date(now + c.interval_seconds * 1000).toISOString() })),
  };
}
