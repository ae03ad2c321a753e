import type { CHECK_IN_SOURCES, TCheckInResult } from '../../contracts/canary';
import { deadlineOfStored } from '../../contracts/canary-health';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { fromHex } from '../../lib/encoding';
import { constantTimeEqual } from '../../lib/secrets';
import { log } from '../../lib/logger';
import { applyUserCheckIn, moveTimersAfterHeartbeat } from './check-in-projection';
import { readCanaryToken } from './canary-token';
import { clockOf, noteCheckIn } from './canary-timer';
import { queueCheckInProjection } from './check-in-sender';

export type CheckInSource = (typeof CHECK_IN_SOURCES)[number];

/** One detail for every token that does not open a canary (unknown, deleted, malformed). */
export const UNKNOWN_TOKEN = 'No canary has this token';

const result = (now: number, canaries: { id: string; deadline: number }[]): TCheckInResult => ({
  checked_in: canaries.length,
  last_check_in: new Date(now).toISOString(),
  canaries: canaries.map((c) => ({ id: c.id, deadline: new Date(c.deadline).toISOString() })),
});

/**
 * POST /api/canary/checkin {token} and POST /api/ping/{token}: the token alone authorises it. The hottest
 * write of the product goes to the canary's Durable Object, the record of its clock, with no D1 round trip
 * (docs/decisions/canary-engine.md): a v2 token names its canary under a MAC checked here with the server
 * secret, and the object refuses a canary it knows is gone. Only a token from before v2 is looked up in
 * D1 by its hash first. D1 follows through the PROJECTIONS queue, sent with the other check-ins this
 * isolate answers meanwhile (check-in-sender.ts) after the answer has left.
 */
export async function checkInWithToken(ctx: ServiceContext, token: string, source: CheckInSource): Promise<TCheckInResult> {
  const presented = await readCanaryToken(ctx.env, token);
  let canaryId: string;
  let version: number | null;
  if (presented.form === 'v2') {
    ({ canaryId, version } = presented);
  } else if (presented.form === 'legacy') {
    const row = await ctx.env.DB.prepare('SELECT id, token_hash FROM canaries WHERE token_hash = ?1 AND active = 1')
      .bind(presented.hash)
      .first<{ id: string; token_hash: string }>();
    // Found by its hash through the index; compared again in constant time so no path leaks timing.
    if (!row || !constantTimeEqual(fromHex(row.token_hash), fromHex(presented.hash))) throw new AppError('NOT_FOUND', UNKNOWN_TOKEN);
    ({ id: canaryId } = row);
    version = null;
  } else {
    throw new AppError('NOT_FOUND', UNKNOWN_TOKEN);
  }
  const checkedIn = await checkInCanary(ctx, canaryId, version, source);
  if (!checkedIn) throw new AppError('NOT_FOUND', UNKNOWN_TOKEN);
  return checkedIn;
}

/**
 * Checks in one canary whose caller is already authorised (a token's MAC, a warning's link): its object records
 * it and D1 follows through the PROJECTIONS queue. `version` null skips the token-version check. Null when the
 * object knows the canary is gone.
 */
export async function checkInCanary(ctx: ServiceContext, canaryId: string, version: number | null, source: CheckInSource): Promise<TCheckInResult | null> {
  const now = ctx.now().getTime();
  const entry = { event_id: crypto.randomUUID(), at: now, source };
  const accepted = await clockOf(ctx.env, canaryId).checkIn(canaryId, version, entry);
  if (!accepted) return null;
  const send = queueCheckInProjection(ctx, { type: 'canary_check_in', canary_id: canaryId, ...entry, timer_due_at: accepted.next_wake });
  if (send) ctx.defer ? ctx.defer(send) : await send;
  return result(now, [{ id: canaryId, deadline: accepted.deadline }]);
}

/**
 * The Heartbeat: a signed-in user checks in every active canary at once (works with none, for the
 * dead-man). It needs D1 to know the user's canaries, so it writes its projection there in the same one
 * batch, then tells each canary's object in parallel, then writes into D1 the timers the objects moved.
 */
export async function checkInAll(ctx: ServiceContext, userId: string, source: CheckInSource): Promise<TCheckInResult> {
  const now = ctx.now().getTime();
  const entry = { event_id: crypto.randomUUID(), at: now, source };
  const canaries = await applyUserCheckIn(ctx, userId, entry);
  const moved = await Promise.all(canaries.map(async (c) => [c.id, await noteCheckIn(ctx.env, c.id, entry)] as const));
  const timers = new Map(moved.filter((m): m is readonly [string, number] => m[1] !== null));
  // Left behind, D1's timer only costs the reconciler a look at the object: the check-in stands either way.
  await moveTimersAfterHeartbeat(ctx, now, timers).catch((err) => log.warn('could not move the Heartbeat’s timers in D1', { error: String(err) }));
  return result(
    now,
    canaries.map((c) => ({
      id: c.id,
      deadline: deadlineOfStored({ last_check_in: now, interval_seconds: c.interval_seconds, schedule: c.schedule, paused_until: c.paused_until }),
    })),
  );
}
