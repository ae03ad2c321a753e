import {
  MONTH_WEEKS,
  type MonthWeek,
  type TCanaryScheduleInput,
  WEEKDAY_NAMES,
  WEEKDAYS,
  type Weekday,
  ZCanarySchedule,
} from '@afterword/worker/contracts/canary-schedule';

/** How a new canary's deadlines are set: every N hours (the SPEC's interval), or a calendar schedule. */
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

/**
 * The schedule to send, checked with the server's own contract so its limits are explained before
 * anything is sent; or the first problem in words.
 */
export function scheduleFromDraft(mode: Exclude<ScheduleMode, 'interval'>, draft: ScheduleDraft): { schedule: TCanaryScheduleInput } | { error: string } {
  const hours = Number(draft.graceHours.trim().replace(',', '.'));
  if (!draft.graceHours.trim() || !Number.isFinite(hours) || hours <= 0) return { error: 'Enter the reminder time in hours, greater than 0.' };
  if (mode === 'weekly' && !draft.days.length) return { error: 'Choose at least one day of the week.' };
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
  if (issue.path[0] === 'grace_seconds') {
    const max = /at most (\d+)/.exec(issue.message)?.[1];
    return { error: max ? `The reminder may be at most ${Number(max) / 3600} hours before: half the time between two of your days.` : issue.message };
  }
  if (issue.path[0] === 'time') return { error: 'Enter the time as hours and minutes, e.g. 10:00.' };
  return { error: issue.message };
}
