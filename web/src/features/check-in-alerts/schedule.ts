import { REMINDER_BEFORE_DEADLINE_SECONDS } from '@afterword/worker/contracts/canary';

/**
 * Browser check-in alerts as a pure function (docs/product.md "Canaries and check-ins"): given the deadline,
 * the time now and which deadlines have already been alerted, say what to show now and when to look again.
 *
 * - 'upcoming' ('Upcoming check-in') is due from 60 s before the deadline until the deadline.
 * - 'missed' ('Missed check-in') is due once the deadline has passed.
 * Each fires at most once per deadline; a new deadline (a check-in) re-arms both.
 */
export type AlertKind = 'upcoming' | 'missed';

export const ALERT_TEXT: Record<AlertKind, { title: string; body: string }> = {
  upcoming: { title: 'Upcoming check-in', body: 'Please confirm your status soon.' },
  missed: { title: 'Missed check-in', body: 'Your messages may be released.' },
};

export const REMINDER_LEAD_MS = REMINDER_BEFORE_DEADLINE_SECONDS * 1000;
/** Browsers run a longer setTimeout at once (32-bit overflow); wake at least this often instead. */
export const MAX_WAKE_MS = 6 * 3600 * 1000;

/** The deadline each alert was last shown for. */
export interface FiredAlerts {
  upcoming: number | null;
  missed: number | null;
}

export const NO_ALERTS_FIRED: FiredAlerts = { upcoming: null, missed: null };

export interface AlertPlan {
  /** Show these now. */
  due: AlertKind[];
  /** Plan again after this many ms, or null when nothing more can happen for this deadline. */
  wakeInMs: number | null;
  /** Whether the deadline has passed (the page title warns). */
  missed: boolean;
}

export function planCheckInAlerts(deadlineMs: number | null, nowMs: number, fired: FiredAlerts): AlertPlan {
  if (deadlineMs === null || !Number.isFinite(deadlineMs)) return { due: [], wakeInMs: null, missed: false };
  const remindAtMs = deadlineMs - REMINDER_LEAD_MS;
  const missed = nowMs >= deadlineMs;
  const due: AlertKind[] = [];
  if (missed) {
    if (fired.missed !== deadlineMs) due.push('missed');
  } else if (nowMs >= remindAtMs && fired.upcoming !== deadlineMs) {
    due.push('upcoming');
  }
  const nextAtMs = nowMs < remindAtMs ? remindAtMs : nowMs < deadlineMs ? deadlineMs : null;
  const wakeInMs = nextAtMs === null ? null : Math.min(nextAtMs - nowMs, MAX_WAKE_MS);
  return { due, wakeInMs, missed };
}

/** Records that `kinds` were shown for `deadlineMs`. */
export function markFired(fired: FiredAlerts, kinds: readonly AlertKind[], deadlineMs: number): FiredAlerts {
  const next = { ...fired };
  for (const kind of kinds) next[kind] = deadlineMs;
  return next;
}

/**
 * The deadline the alerts follow: the earliest canary's (from the server's last check-in and interval,
 * read with the shared health rule), or a simulated miss in test mode, whichever is sooner.
 */
export function effectiveDeadline(serverDeadlineMs: number | null, simulatedAtMs: number | null): number | null {
  if (simulatedAtMs === null) return serverDeadlineMs;
  return serverDeadlineMs === null ? simulatedAtMs : Math.min(serverDeadlineMs, simulatedAtMs);
}
