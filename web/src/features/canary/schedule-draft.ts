import { canaryDeadline } from '@afterword/worker/contracts/canary-health';
import { INTERVAL_MAX_SECONDS, ZIntervalSeconds } from '@afterword/worker/contracts/canary';
import {
  canonicalSchedule,
  MONTH_WEEKS,
  type MonthWeek,
  type TCanarySchedule,
  type TCanaryScheduleInput,
  WEEKDAY_NAMES,
  WEEKDAYS,
  type Weekday,
  ZCanarySchedule,
} from '@afterword/worker/contracts/canary-schedule';
import { hoursToIntervalSeconds } from './interval-hours';

/** How a new canary's deadlines are set: every N hours (the original interval, docs/api.md), or a calendar schedule. */
export type ScheduleMode = 'interval' | 'weekly' | 'monthly';

/** What the create form holds for a calendar schedule, as typed. */
export interface ScheduleDraft {
  days: Weekday[];
  /** "HH:MM" from a time input. */
  time: string;
  timeZone: string;
  /** The reminder before each deadline, in hours as typed. */
  graceHours: string;
  monthlyBy: 'day' | 'weekday';
  day: string;
  week: MonthWeek;
  weekday: Weekday;
}

/** The browser's own zone, or UTC when it has none. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export const defaultScheduleDraft = (): ScheduleDraft => ({
  days: ['mon'],
  time: '10:00',
  timeZone: browserTimeZone(),
  graceHours: '1',
  monthlyBy: 'day',
  day: '1',
  week: 'first',
  weekday: 'mon',
});

/** Every IANA zone the browser knows (the server checks the same names), the chosen one first if missing. */
export function timeZoneOptions(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const zones = all.includes('UTC') ? all : [...all, 'UTC'];
  return zones.includes(current) ? zones : [current, ...zones];
}

export const WEEKDAY_OPTIONS = WEEKDAYS.map((d) => ({ value: d, label: WEEKDAY_NAMES[d] }));
export const MONTH_WEEK_OPTIONS = MONTH_WEEKS.map((w) => ({ value: w, label: w[0]!.toUpperCase() + w.slice(1) }));

/** The field of the schedule form a problem is shown under. */
export type CadenceField = 'interval' | 'days' | 'day' | 'time' | 'time_zone' | 'grace';
/** One problem with what was typed, in words, and the field it is shown under. */
export interface CadenceError {
  field: CadenceField;
  error: string;
}

/** A schedule field of the contract (`ZCanarySchedule`) → the form field that shows its problems. */
const FIELD_OF: Record<string, CadenceField> = {
  days: 'days',
  day: 'day',
  week: 'day',
  weekday: 'day',
  time: 'time',
  time_zone: 'time_zone',
  grace_seconds: 'grace',
};
/** Where a problem the server found (a 422 issue's path, e.g. ['schedule', 'time_zone']) is shown. */
export function cadenceFieldOf(path: readonly PropertyKey[]): CadenceField | null {
  if (path[0] === 'interval_seconds') return 'interval';
  if (path[0] === 'schedule') return FIELD_OF[String(path[1])] ?? 'time_zone';
  return null;
}

/**
 * The schedule to send, checked with the server's own contract so its limits are explained before
 * anything is sent; or the first problem in words, with the field it belongs to.
 */
export function scheduleFromDraft(mode: Exclude<ScheduleMode, 'interval'>, draft: ScheduleDraft): { schedule: TCanaryScheduleInput } | CadenceError {
  const hours = Number(draft.graceHours.trim().replace(',', '.'));
  if (!draft.graceHours.trim() || !Number.isFinite(hours) || hours <= 0) return { field: 'grace', error: 'Enter the reminder time in hours, greater than 0.' };
  if (mode === 'weekly' && !draft.days.length) return { field: 'days', error: 'Choose at least one day of the week.' };
  const common = { time: draft.time, time_zone: draft.timeZone, grace_seconds: Math.round(hours * 3600) };
  const schedule: TCanaryScheduleInput =
    mode === 'weekly'
      ? { kind: 'weekly', days: WEEKDAYS.filter((d) => draft.days.includes(d)), ...common }
      : draft.monthlyBy === 'day'
        ? { kind: 'monthly_day', day: Number(draft.day), ...common }
        : { kind: 'monthly_weekday', week: draft.week, weekday: draft.weekday, ...common };
  const parsed = ZCanarySchedule.safeParse(schedule);
  if (parsed.success) return { schedule };
  const issue = parsed.error.issues[0]!;
  const field = FIELD_OF[String(issue.path[0])] ?? 'time_zone';
  if (issue.path[0] === 'grace_seconds') {
    const max = /at most (\d+)/.exec(issue.message)?.[1];
    return { field, error: max ? `The reminder may be at most ${Number(max) / 3600} hours before: half the time between two of your days.` : issue.message };
  }
  if (issue.path[0] === 'time') return { field, error: 'Enter the time as hours and minutes, e.g. 10:00.' };
  return { field, error: issue.message };
}

export const INTERVAL_HOURS_ERROR = 'Enter a number of hours greater than 0.';
const maxDays = INTERVAL_MAX_SECONDS / 86_400;
const maxHours = INTERVAL_MAX_SECONDS / 3600;
export const INTERVAL_BOUNDS_ERROR = `The interval must be at least one minute and at most ${maxDays} days (${maxHours} hours).`;

/** A canary's cadence as the create and edit forms send it: an interval, or a calendar schedule. */
export type Cadence = { interval_seconds: number; schedule: null } | { schedule: TCanaryScheduleInput };

/**
 * What the form's fields say, checked with the server's contracts (`ZIntervalSeconds`, `ZCanarySchedule`:
 * one minute to 400 days; the schedule's rules), or the first problem and its field.
 */
export function cadenceFromForm(mode: ScheduleMode, hours: string, draft: ScheduleDraft): { cadence: Cadence } | CadenceError {
  if (mode !== 'interval') {
    const result = scheduleFromDraft(mode, draft);
    return 'error' in result ? result : { cadence: { schedule: result.schedule } };
  }
  const intervalSeconds = hoursToIntervalSeconds(hours);
  if (intervalSeconds === null) return { field: 'interval', error: INTERVAL_HOURS_ERROR };
  if (!ZIntervalSeconds.safeParse(intervalSeconds).success) return { field: 'interval', error: INTERVAL_BOUNDS_ERROR };
  return { cadence: { interval_seconds: intervalSeconds, schedule: null } };
}

/** The edit form's starting point: the canary's own cadence (a calendar rule, or its interval in hours). */
export function formOfCadence(intervalSeconds: number, schedule: TCanarySchedule | null): { mode: ScheduleMode; hours: string; draft: ScheduleDraft } {
  const hours = String(Number((intervalSeconds / 3600).toFixed(4)));
  if (!schedule) return { mode: 'interval', hours, draft: defaultScheduleDraft() };
  const common = {
    ...defaultScheduleDraft(),
    time: schedule.time,
    timeZone: schedule.time_zone,
    graceHours: String(Number((schedule.grace_seconds / 3600).toFixed(4))),
  };
  if (schedule.kind === 'weekly') return { mode: 'weekly', hours, draft: { ...common, days: [...schedule.days] } };
  if (schedule.kind === 'monthly_day') return { mode: 'monthly', hours, draft: { ...common, monthlyBy: 'day', day: String(schedule.day) } };
  return { mode: 'monthly', hours, draft: { ...common, monthlyBy: 'weekday', week: schedule.week, weekday: schedule.weekday } };
}

/**
 * The deadline `canary` would have under `cadence`: the same function the server reads deadlines with
 * (contracts/canary-health.ts `canaryDeadline`), from its last check-in or the end of its pause.
 */
export function deadlineUnder(canary: { last_check_in: string; paused_until: string | null }, cadence: Cadence): number {
  const schedule = cadence.schedule ? canonicalSchedule(ZCanarySchedule.parse(cadence.schedule)) : null;
  return canaryDeadline({
    lastCheckInMs: Date.parse(canary.last_check_in),
    // A calendar canary's deadline does not read its interval (contracts/canary-health.ts).
    intervalSeconds: 'interval_seconds' in cadence ? cadence.interval_seconds : 0,
    schedule,
    pausedUntilMs: canary.paused_until ? Date.parse(canary.paused_until) : null,
  });
}
