import { schema } from '@afterword/db';
import type { Canary } from '@afterword/db/schema';
import { and, eq, inArray } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { CHECK_IN_SOURCES, TCheckInResult } from '../../contracts/canary';
import { graceMs } from '../../contracts/canary-health';
import type { ServiceContext } from '../../env';
import { runBatch } from '../../lib/db-batch';
import { AppError } from '../../lib/errors';
import { constantTimeEqual } from '../../lib/secrets';
import { fromHex } from '../../lib/encoding';
import { activityInsert } from '../activity/record-activity';
import { deadmanCheckInStatements } from '../deadman/deadman-check-in';
import { canaryTokenHash, isWellFormedCanaryToken } from './canary-token';
import { armCanaryTimer } from './canary-timer';

export type CheckInSource = (typeof CHECK_IN_SOURCES)[number];

/** One detail for every token that does not open a canary (unknown, deleted, malformed). */
export const UNKNOWN_TOKEN = 'No canary has this token';

/** POST /api/canary/checkin {token} and POST /api/ping/{token}: the token alone authorises it. */
export async function checkInWithToken(ctx: ServiceContext, token: string, source: CheckInSource): Promise<TCheckInResult> {
  if (!isWellFormedCanaryToken(token)) throw new AppError('NOT_FOUND', UNKNOWN_TOKEN);
  const hash = await canaryTokenHash(token);
  const [canary] = await ctx.db.select().from(schema.canaries).where(eq(schema.canaries.token_hash, hash)).limit(1);
  // The index lookup found it by hash; compare again in constant time so no code path leaks timing.
  if (!canary || !canary.active || !constantTimeEqual(fromHex(canary.token_hash), fromHex(hash))) {
    throw new AppError('NOT_FOUND', UNKNOWN_TOKEN);
  }
  return checkInCanaries(ctx, canary.user_id, [canary], source);
}

/** The Heartbeat: a signed-in user checks in every active canary at once (works with none, for the dead-man). */
export async function checkInAll(ctx: ServiceContext, userId: string, source: CheckInSource): Promise<TCheckInResult> {
  const owned = await ctx.db
    .select()
    .from(schema.canaries)
    .where(and(eq(schema.canaries.user_id, userId), eq(schema.canaries.active, true)));
  return checkInCanaries(ctx, userId, owned, source);
}

/**
 * Starts a new cycle for each canary (last_check_in = now, misses back to 0), moves the dead-man's
 * deadline and cancels a scheduled dead-man deletion — one atomic batch with its activity rows.
 * The release engine adds here: cancel every release still inside its cancel window (DESIGN section 3).
 */
async function checkInCanaries(ctx: ServiceContext, userId: string, canaries: Canary[], source: CheckInSource): Promise<TCheckInResult> {
  const now = ctx.now();
  const ids = canaries.map((c) => c.id);
  const statements: BatchItem<'sqlite'>[] = [];
  if (ids.length) statements.push(ctx.db.update(schema.canaries).set({ last_check_in: now }).where(inArray(schema.canaries.id, ids)));
  const names = canaries.map((c) => `"${c.name || 'Unnamed'}"`).join(', ');
  statements.push(
    activityInsert(ctx, {
      userId,
      canaryId: canaries.length === 1 ? canaries[0]!.id : null,
      kind: 'check_in',
      source,
      summary: canaries.length ? `Checked in (${source}): ${names}.` : `Checked in (${source}).`,
      at: now,
    }),
    ...(await deadmanCheckInStatements(ctx, userId, now)),
  );
  await runBatch(ctx.db, statements);

  // A check-in only moves deadlines later, so an armed timer merely wakes early and re-arms. Re-arm
  // now only where the new cycle's first entry (grace reminder) comes before the armed wake.
  await Promise.all(
    canaries
      .filter((c) => !c.timer_due_at || c.timer_due_at.getTime() > now.getTime() + c.interval_seconds * 1000 - graceMs(c.interval_seconds))
      .map((c) => armCanaryTimer(ctx.env, c.id)),
  );
  return {
    checked_in: canaries.length,
    last_check_in: now.toISOString(),
    canaries: canaries.map((c) => ({ id: c.id, deadline: new Date(now.getTime() + c.interval_seconds * 1000).toISOString() })),
  };
}
