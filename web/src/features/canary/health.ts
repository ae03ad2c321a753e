import { canaryHealth, cycleStartOf } from '@afterword/worker/contracts/canary-health';
import type { TCanarySchedule } from '@afterword/worker/contracts/canary-schedule';
import type { CanaryHealth as HealthLabel } from '../../components/badge';

/** What the countdown shows for one canary at one instant; the shared `canaryHealth` decides the status. */
export interface CountdownView {
  health: HealthLabel;
  deadlineMs: number;
  remainingMs: number;
  /** 1 right after a check-in, 0 at the deadline. */
  fractionLeft: number;
  /** The share of the interval that is grace (the last 20 %). */
  graceFraction: number;
}

const LABEL = { active: 'Active', grace: 'Grace', missed: 'Missed' } as const satisfies Record<string, HealthLabel>;

export function countdownView(
  lastCheckIn: string,
  intervalSeconds: number,
  nowMs: number,
  /** Test mode: a locally simulated miss shows as Missed with nothing left. */
  simulatedMiss = false,
  /** A calendar schedule and a vacation pause, when the canary has them (the same rules as the server's). */
  cadence: { schedule?: TCanarySchedule | null; paused_until?: string | null } = {},
): CountdownView | null {
  const lastCheckInMs = Date.parse(lastCheckIn);
  if (!Number.isFinite(lastCheckInMs) || !(intervalSeconds > 0)) return null;
  const state = {
    lastCheckInMs,
    intervalSeconds,
    schedule: cadence.schedule ?? null,
    pausedUntilMs: cadence.paused_until ? Date.parse(cadence.paused_until) : null,
  };
  const view = canaryHealth(state, nowMs);
  // The bar spans the cycle: from the last check-in (or a pause's end) to the deadline.
  const intervalMs = Math.max(1, view.deadlineMs - cycleStartOf(state));
  const missed = simulatedMiss || view.status === 'missed';
  const remainingMs = missed ? 0 : view.remainingMs;
  return {
    health: missed ? 'Missed' : LABEL[view.status],
    deadlineMs: view.deadlineMs,
    remainingMs,
    fractionLeft: Math.min(1, Math.max(0, remainingMs / intervalMs)),
    graceFraction: (view.deadlineMs - view.graceStartsMs) / intervalMs,
  };
}
