import { GRACE_FRACTION, type CanaryHealth } from './canary';
import { nextOccurrence, occurrencesBetween, type TCanarySchedule } from './canary-schedule';

/**
 * A canary's health as a pure function of its state and one `now`
 * (docs/server-rules.md "Canaries and check-ins"), shared by the server (status, list, timers) and the web app
 * (countdown, title warning), so both agree.
 *
 * An interval canary's deadline is the cycle's start plus its interval, its grace 20 % of the interval, and
 * each further miss one interval later. A calendar canary (docs/decisions/calendar-schedules.md) has the first
 * scheduled instant after the cycle's start plus its grace as its deadline, its stated grace, and each further
 * scheduled instant as a further miss. The cycle starts at the last check-in — or at the end of a vacation
 * pause, if later: while paused the deadline lies after the pause, so nothing is due.
 */
export interface CanaryClockState {
  lastCheckInMs: number;
  intervalSeconds: number;
  schedule?: TCanarySchedule | null;
  pausedUntilMs?: number | null;
}

export interface CanaryHealthView {
  deadlineMs: number;
  graceStartsMs: number;
  remainingMs: number;
  status: CanaryHealth;
  /** Whole intervals (scheduled instants) elapsed since the deadline, plus one; 0 while not missed. */
  misses: number;
  /** When the next miss is due: the deadline while not missed, else the one after `misses`. */
  nextMissMs: number;
  graceMs: number;
}

/** Misses counted by one reading at most (a calendar canary missed for decades is counted on later reads). */
const MAX_COUNTED_MISSES = 5000;

export const graceMs = (intervalSeconds: number) => Math.round(intervalSeconds * 1000 * GRACE_FRACTION);

/** The grace period of a canary: 20 % of its interval, or its calendar schedule's stated grace. */
export const graceOf = (state: Pick<CanaryClockState, 'intervalSeconds' | 'schedule'>) =>
  state.schedule ? state.schedule.grace_seconds * 1000 : graceMs(state.intervalSeconds);

/** When the current cycle started: the last check-in, or the end of a pause if that is later. */
export const cycleStartOf = (state: Pick<CanaryClockState, 'lastCheckInMs' | 'pausedUntilMs'>) =>
  Math.max(state.lastCheckInMs, state.pausedUntilMs ?? Number.NEGATIVE_INFINITY);

/** The deadline of the cycle that starts at `cycleStart`. */
export function deadlineAfter(state: Pick<CanaryClockState, 'intervalSeconds' | 'schedule'>, cycleStart: number): number {
  if (!state.schedule) return cycleStart + state.intervalSeconds * 1000;
  // A check-in inside a deadline's grace window counts for that deadline: the next one is the first
  // scheduled instant whose grace window starts after the check-in.
  return nextOccurrence(state.schedule, cycleStart + graceOf(state));
}

/** The current cycle's deadline. */
export const canaryDeadline = (state: CanaryClockState) => deadlineAfter(state, cycleStartOf(state));

export function canaryHealth(state: CanaryClockState, nowMs: number): CanaryHealthView {
  const deadlineMs = canaryDeadline(state);
  const grace = graceOf(state);
  const graceStartsMs = deadlineMs - grace;
  const remainingMs = deadlineMs - nowMs;
  // The deadline instant itself counts as missed: "missed once the deadline passed" is >= here, so a
  // timer firing exactly at the deadline and a status read at that instant agree.
  const missed = nowMs >= deadlineMs;
  let misses = 0;
  let nextMissMs = deadlineMs;
  if (missed && state.schedule) {
    const due = occurrencesBetween(state.schedule, deadlineMs, nowMs, MAX_COUNTED_MISSES);
    misses = due.length;
    // Capped (a daily schedule unwatched for 13 years): counted as that many, and asked again at the next scheduled time.
    nextMissMs = nextOccurrence(state.schedule, misses === MAX_COUNTED_MISSES ? nowMs : (due.at(-1) ?? deadlineMs));
  } else if (missed) {
    const intervalMs = state.intervalSeconds * 1000;
    misses = Math.floor((nowMs - deadlineMs) / intervalMs) + 1;
    nextMissMs = deadlineMs + misses * intervalMs;
  }
  return {
    deadlineMs,
    graceStartsMs,
    remainingMs,
    status: missed ? 'missed' : nowMs >= graceStartsMs ? 'grace' : 'active',
    misses,
    nextMissMs,
    graceMs: grace,
  };
}

/** When miss number `misses` of the cycle with deadline `deadlineMs` is due. */
export function missDueAt(state: Pick<CanaryClockState, 'intervalSeconds' | 'schedule'>, deadlineMs: number, misses: number): number {
  if (!state.schedule) return deadlineMs + (misses - 1) * state.intervalSeconds * 1000;
  let at = deadlineMs;
  for (let k = 1; k < misses; k++) at = nextOccurrence(state.schedule, at);
  return at;
}

/** A canary row as stored (D1 through drizzle: dates; raw SQL: ms and JSON text). */
export interface StoredCadence {
  last_check_in: Date | number;
  interval_seconds: number;
  schedule?: unknown;
  paused_until?: Date | number | null;
}

const msOf = (v: Date | number) => (typeof v === 'number' ? v : v.getTime());

/** A stored row as the health function reads it; its schedule was validated by the contract before it was written. */
export function clockStateOfStored(row: StoredCadence): CanaryClockState {
  const schedule = typeof row.schedule === 'string' ? (JSON.parse(row.schedule) as TCanarySchedule) : ((row.schedule ?? null) as TCanarySchedule | null);
  return {
    lastCheckInMs: msOf(row.last_check_in),
    intervalSeconds: row.interval_seconds,
    schedule,
    pausedUntilMs: row.paused_until == null ? null : msOf(row.paused_until),
  };
}

/** The current cycle's deadline of a stored row: what a `missed_checkins` event's `deadline` must equal to be current. */
export const deadlineOfStored = (row: StoredCadence) => canaryDeadline(clockStateOfStored(row));
