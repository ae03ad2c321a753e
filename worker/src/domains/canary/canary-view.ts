import type { Canary } from '@afterword/db/schema';
import type { TCanary } from '../../contracts/canary';
import { canaryHealth, type CanaryClockState, clockStateOfStored } from '../../contracts/canary-health';
import { scheduleWords, type TCanarySchedule } from '../../contracts/canary-schedule';
import type { ServiceContext } from '../../env';
import { deriveCanaryToken } from './canary-token';

/** A D1 row's calendar schedule (validated by the contract before it was written), or null. */
export const scheduleOfRow = (row: Pick<Canary, 'schedule'>) => (row.schedule ?? null) as TCanarySchedule | null;

/** A D1 row as the shared health function reads it (contracts/canary-health.ts). */
export const clockStateOfRow = (row: Pick<Canary, 'last_check_in' | 'interval_seconds' | 'schedule' | 'paused_until'>): CanaryClockState =>
  clockStateOfStored(row);

/** A canary as the API shows it to its owner: with its token, deadline and health at `now`. */
export async function toCanaryView(ctx: ServiceContext, canary: Canary): Promise<TCanary> {
  const now = ctx.now().getTime();
  const health = canaryHealth(clockStateOfRow(canary), now);
  const schedule = scheduleOfRow(canary);
  const pausedUntil = canary.paused_until && canary.paused_until.getTime() > now ? canary.paused_until : null;
  return {
    id: canary.id,
    name: canary.name,
    interval_seconds: canary.interval_seconds,
    active: canary.active,
    token: await deriveCanaryToken(ctx.env, canary.id, canary.token_version),
    last_check_in: canary.last_check_in.toISOString(),
    deadline: new Date(health.deadlineMs).toISOString(),
    status: health.status,
    misses: health.misses,
    created_at: canary.created_at.toISOString(),
    schedule,
    schedule_words: schedule ? scheduleWords(schedule) : null,
    paused_until: pausedUntil ? pausedUntil.toISOString() : null,
  };
}
