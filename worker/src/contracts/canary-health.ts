import { GRACE_FRACTION, type CanaryHealth } from './canary';

/**
 * A canary's health as a pure function of its state and one `now`
 * (docs/server-rules.md "Canaries and check-ins"), shared by the server (status, list, timers) and the web app
 * (countdown, title warning), so both agree.
 */
export interface CanaryClockState {
  lastCheckInMs: number;
  intervalSeconds: number;
}

export interface CanaryHealthView {
  deadlineMs: number;
  graceStartsMs: number;
  remainingMs: number;
  status: CanaryHealth;
  /** Whole intervals elapsed since the deadline, plus one; 0 while not missed. */
  misses: number;
}

export const graceMs = (intervalSeconds: number) => Math.round(intervalSeconds * 1000 * GRACE_FRACTION);

export function canaryHealth(state: CanaryClockState, nowMs: number): CanaryHealthView {
  const intervalMs = state.intervalSeconds * 1000;
  const deadlineMs = state.lastCheckInMs + intervalMs;
  const graceStartsMs = deadlineMs - graceMs(state.intervalSeconds);
  const remainingMs = deadlineMs - nowMs;
  // The deadline instant itself counts as missed: "missed once the deadline passed" is >= here, so a
  // timer firing exactly at the deadline and a status read at that instant agree.
  const missed = nowMs >= deadlineMs;
  return {
    deadlineMs,
    graceStartsMs,
    remainingMs,
    status: missed ? 'missed' : nowMs >= graceStartsMs ? 'grace' : 'active',
    misses: missed ? Math.floor((nowMs - deadlineMs) / intervalMs) + 1 : 0,
  };
}
