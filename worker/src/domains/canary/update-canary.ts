import { schema } from '@afterword/db';
import type { z } from 'zod';
import type { TActivity } from '../../contracts/activity';
import { canaryLabel, type TCanary, type ZPauseCanaryInput, type ZUpdateCanaryInput } from '../../contracts/canary';
import { canonicalSchedule, PAUSE_MAX_DAYS, scheduleWords, shortestGapDays, type TCanarySchedule } from '../../contracts/canary-schedule';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { humanTime } from '../../lib/human-time';
import { durationWords } from './canary-notice-texts';
import { clockOf } from './canary-timer';
import { scheduleOfRow, toCanaryView } from './canary-view';
import { findOwnCanary } from './list-canaries';

const DAY_MS = 86_400_000;

/**
 * The interval and schedule columns of a canary: an interval canary keeps its interval; a calendar one
 * stores its schedule (zone canonicalised) and, as `interval_seconds`, the shortest time between two
 * scheduled days — shown to clients of the original status answer (docs/api.md), which know only intervals.
 */
export function cadenceOf(intervalSeconds: number, schedule: TCanarySchedule | null) {
  if (!schedule) return { interval_seconds: intervalSeconds, schedule: null };
  const canonical = canonicalSchedule(schedule);
  return { interval_seconds: shortestGapDays(canonical) * 86_400, schedule: canonical };
}

const MISSED = (label: string) => `Your canary "${label}" has missed its deadline: check in first, then change its schedule or pause it.`;

/** A line in the owner's Recent Activity: every change of a canary's clock is on record. */
async function recordChange(ctx: ServiceContext, row: { id: string; user_id: string }, kind: TActivity['kind'], summary: string) {
  await ctx.db
    .insert(schema.activity)
    .values({ id: crypto.randomUUID(), user_id: row.user_id, canary_id: row.id, kind, source: 'web', summary, created_at: ctx.now() });
}

/** Asks the canary's object (the record of its clock) to take the new cadence; 409 while it is missed. */
async function applyCadence(
  ctx: ServiceContext,
  row: Awaited<ReturnType<typeof findOwnCanary>>,
  change: { interval_seconds: number; schedule: TCanarySchedule | null; paused_until: number | null },
) {
  if (!row.active) throw new AppError('CONFLICT', `Your canary "${canaryLabel(row.name)}" is not active.`);
  const answer = await clockOf(ctx.env, row.id).setCadence(row.id, change, ctx.now().getTime());
  if (answer === 'missed') throw new AppError('CONFLICT', MISSED(canaryLabel(row.name)));
  if (answer === null) throw new AppError('NOT_FOUND', 'Canary not found');
}

/**
 * PATCH /api/canary/{id}: a new name, interval or calendar schedule (null: back to the interval). The
 * deadline follows from the last check-in under the new cadence; a deadline that has already passed
 * is treated like any late deadline — the owner is warned first and nothing counts before a grace
 * period after that (docs/decisions/canary-engine.md).
 */
export async function updateCanary(ctx: ServiceContext, userId: string, canaryId: string, input: z.output<typeof ZUpdateCanaryInput>): Promise<TCanary> {
  const row = await findOwnCanary(ctx, userId, canaryId);
  if (input.name !== undefined && input.name !== row.name) {
    await ctx.env.DB.prepare('UPDATE canaries SET name = ? WHERE id = ?').bind(input.name, canaryId).run();
    // The object keeps the name for its notices' words.
    await clockOf(ctx.env, canaryId).rename(canaryId, input.name);
  }
  if (input.interval_seconds !== undefined || input.schedule !== undefined) {
    const schedule = input.schedule === undefined ? scheduleOfRow(row) : input.schedule;
    const cadence = cadenceOf(input.interval_seconds ?? row.interval_seconds, schedule);
    await applyCadence(ctx, row, { ...cadence, paused_until: row.paused_until?.getTime() ?? null });
    const words = cadence.schedule ? scheduleWords(cadence.schedule) : `Every ${durationWords(cadence.interval_seconds * 1000)}`;
    await recordChange(ctx, row, 'canary_changed', `Changed canary "${canaryLabel(input.name ?? row.name)}": ${words}.`);
  }
  return toCanaryView(ctx, await findOwnCanary(ctx, userId, canaryId));
}

/**
 * POST /api/canary/{id}/pause: a vacation. No deadline falls before `until` (at most PAUSE_MAX_DAYS days
 * ahead: a 422 with a plain detail beyond); misses and warnings stop meanwhile; the owner is told a day
 * before it ends; the next deadline is counted from its end (or from a later check-in).
 */
export async function pauseCanary(ctx: ServiceContext, userId: string, canaryId: string, input: z.output<typeof ZPauseCanaryInput>): Promise<TCanary> {
  const now = ctx.now().getTime();
  const row = await findOwnCanary(ctx, userId, canaryId);
  if (!input.until) throw new AppError('UNPROCESSABLE', 'Say when the pause ends: until, an ISO 8601 date-time.');
  const until = Date.parse(input.until);
  if (!(until > now)) throw new AppError('UNPROCESSABLE', 'A pause must end in the future.');
  if (until - now > PAUSE_MAX_DAYS * DAY_MS) {
    throw new AppError('UNPROCESSABLE', `A pause may last at most ${PAUSE_MAX_DAYS} days; choose an end before ${humanTime(now + PAUSE_MAX_DAYS * DAY_MS)}.`);
  }
  await applyCadence(ctx, row, { interval_seconds: row.interval_seconds, schedule: scheduleOfRow(row), paused_until: until });
  await recordChange(ctx, row, 'canary_paused', `Paused canary "${canaryLabel(row.name)}" for a vacation until ${humanTime(until)}.`);
  return toCanaryView(ctx, await findOwnCanary(ctx, userId, canaryId));
}

/** POST /api/canary/{id}/resume: the pause ends now, so the next deadline is counted from now. */
export async function resumeCanary(ctx: ServiceContext, userId: string, canaryId: string): Promise<TCanary> {
  const now = ctx.now().getTime();
  const row = await findOwnCanary(ctx, userId, canaryId);
  if (!row.paused_until || row.paused_until.getTime() <= now) throw new AppError('CONFLICT', `Your canary "${canaryLabel(row.name)}" is not paused.`);
  await applyCadence(ctx, row, { interval_seconds: row.interval_seconds, schedule: scheduleOfRow(row), paused_until: now });
  await recordChange(ctx, row, 'canary_resumed', `Ended the vacation pause of canary "${canaryLabel(row.name)}".`);
  return toCanaryView(ctx, await findOwnCanary(ctx, userId, canaryId));
}
