import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';

/**
 * Calendar schedules (docs/decisions/calendar-schedules.md): "every Monday and Thursday by 10:00",
 * "on the 1st of the month", "the first Monday" — at a wall time in an IANA time zone, with a grace
 * period before each deadline. Every date computation goes through Temporal (temporal-polyfill, whose
 * zone rules come from the runtime's Intl data): no hand-written date arithmetic.
 *
 * DST rules (one place, `instantOf`): a wall time that a spring-forward gap skips is moved forward by
 * the gap's length (02:30 in a one-hour gap is 03:30 — RFC 5545's rule and Temporal's 'compatible'),
 * and a wall time that a fall-back overlap repeats is its later instant. So a deadline is never earlier
 * than the stated wall time, and every scheduled day has its deadline.
 */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};
/** Which weekday of the month: the 1st to the 4th, or the last. */
export const MONTH_WEEKS = ['first', 'second', 'third', 'fourth', 'last'] as const;
export type MonthWeek = (typeof MONTH_WEEKS)[number];

export const GRACE_MIN_SECONDS = 60;
export const DEFAULT_GRACE_SECONDS = 3600;
/** A vacation pause lasts at most this long (docs/decisions/calendar-schedules.md): a switch may not be switched off indefinitely. */
export const PAUSE_MAX_DAYS = 60;
/** The owner is told this long before a pause ends (and a pause shorter than this is told at its start). */
export const PAUSE_NOTICE_BEFORE_MS = 24 * 3600_000;

const DAY_SECONDS = 86_400;

/** An IANA zone name the runtime knows ("Europe/Berlin", "UTC"), canonicalised; no bare offsets. */
export function canonicalTimeZone(name: string): string | null {
  if (!name || /^[+-]/.test(name) || name.length > 64) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

// A refinement, not a transform, so the same schema documents requests and responses; the services store
// the canonical name (`canonicalSchedule`).
const ZTimeZone = z
  .string({ message: 'time_zone must be an IANA time zone such as "Europe/Berlin"' })
  .refine((v) => canonicalTimeZone(v) !== null, {
    message: 'time_zone is not an IANA time zone (for example "Europe/Berlin" or "America/New_York")',
  })
  .meta({ description: 'IANA time zone of the wall time, e.g. "Europe/Berlin"', format: 'iana-time-zone', examples: ['Europe/Berlin'] });

const ZWallTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'time must be a wall time "HH:MM" (00:00 to 23:59)' })
  .describe('Wall time of the deadline, "HH:MM" in the time zone');

const ZGraceSeconds = z
  .number({ message: 'grace_seconds must be a number of seconds' })
  .int({ message: 'grace_seconds must be a whole number of seconds' })
  .min(GRACE_MIN_SECONDS, { message: `grace_seconds must be at least ${GRACE_MIN_SECONDS}` })
  .default(DEFAULT_GRACE_SECONDS)
  .describe('How long before each deadline the owner is reminded; a check-in inside this window counts for that deadline');

const common = { time: ZWallTime, time_zone: ZTimeZone, grace_seconds: ZGraceSeconds };

const ZWeekly = z.object({
  kind: z.literal('weekly'),
  days: z
    .array(z.enum(WEEKDAYS))
    .min(1, { message: 'days must name at least one weekday' })
    .max(7)
    .refine((d) => new Set(d).size === d.length, { message: 'days must not repeat a weekday' })
    .describe('The weekdays with a deadline'),
  ...common,
});
const ZMonthlyDay = z.object({
  kind: z.literal('monthly_day'),
  day: z
    .number()
    .int()
    .min(1, { message: 'day must be 1 to 31' })
    .max(31, { message: 'day must be 1 to 31' })
    .describe('Day of the month; in a shorter month, its last day'),
  ...common,
});
const ZMonthlyWeekday = z.object({
  kind: z.literal('monthly_weekday'),
  week: z.enum(MONTH_WEEKS).describe('Which such weekday of the month'),
  weekday: z.enum(WEEKDAYS),
  ...common,
});

/** The shortest time between two scheduled days, in whole days (grace must fit well inside it). */
export function shortestGapDays(s: Pick<TCanarySchedule, 'kind'> & Partial<{ days: readonly Weekday[] }>): number {
  if (s.kind !== 'weekly') return 28;
  const idx = [...new Set(s.days ?? [])].map((d) => WEEKDAYS.indexOf(d)).sort((a, b) => a - b);
  if (idx.length <= 1) return 7;
  return Math.min(...idx.map((d, i) => (i + 1 < idx.length ? idx[i + 1]! - d : idx[0]! + 7 - d)));
}
/** At most half the shortest gap between scheduled days, so a check-in in one grace window never skips the next day. */
export const maxGraceSeconds = (s: Parameters<typeof shortestGapDays>[0]) => (shortestGapDays(s) * DAY_SECONDS) / 2;

/**
 * A calendar schedule (optional on POST /api/canary/create and PATCH /api/canary/{id}; absent: the
 * interval canary of docs/api.md). The deadline is the first scheduled wall time after the last check-in
 * plus the grace period.
 */
export const ZCanarySchedule = z
  .discriminatedUnion('kind', [ZWeekly, ZMonthlyDay, ZMonthlyWeekday])
  .superRefine((s, ctx) => {
    const max = maxGraceSeconds(s);
    if (s.grace_seconds > max) {
      ctx.addIssue({
        code: 'custom',
        path: ['grace_seconds'],
        message: `grace_seconds must be at most ${max} (half the shortest time between two scheduled days)`,
      });
    }
  })
  .describe('A calendar schedule: weekly on chosen days, or monthly on a day or a weekday, at a wall time in an IANA time zone');
export type TCanarySchedule = z.output<typeof ZCanarySchedule>;
export type TCanaryScheduleInput = z.input<typeof ZCanarySchedule>;

/** The schedule with its zone's canonical name ("europe/berlin" → "Europe/Berlin") and its days in week order. */
export function canonicalSchedule(s: TCanarySchedule): TCanarySchedule {
  const time_zone = canonicalTimeZone(s.time_zone) ?? s.time_zone;
  if (s.kind !== 'weekly') return { ...s, time_zone };
  return { ...s, time_zone, days: [...s.days].sort((a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b)) };
}

// ---------------------------------------------------------------------------------------------------
// Occurrences

const WEEKDAY_NUMBER: Record<Weekday, number> = { mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6, sun: 7 };

/** The instant of a wall time on a date in the zone: a gap moves it forward, an overlap takes the later instant. */
function instantOf(date: Temporal.PlainDate, time: string, zone: string): number {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return date.toPlainDateTime({ hour, minute }).toZonedDateTime(zone, { disambiguation: 'later' }).epochMilliseconds;
}

/** The scheduled date of a monthly rule in the month of `month` (its first day). */
function monthlyDate(s: TCanarySchedule, month: Temporal.PlainDate): Temporal.PlainDate {
  if (s.kind === 'monthly_day') return month.with({ day: Math.min(s.day, month.daysInMonth) });
  if (s.kind !== 'monthly_weekday') throw new Error('not a monthly rule');
  const want = WEEKDAY_NUMBER[s.weekday];
  if (s.week === 'last') {
    const last = month.with({ day: month.daysInMonth });
    return last.subtract({ days: (last.dayOfWeek - want + 7) % 7 });
  }
  const first = month.with({ day: 1 });
  const offset = (want - first.dayOfWeek + 7) % 7;
  return first.add({ days: offset + 7 * MONTH_WEEKS.indexOf(s.week) });
}

/** The scheduled dates from the one on or before `from`'s local date onwards, in order (lazily). */
function* scheduledDates(s: TCanarySchedule, from: Temporal.PlainDate): Generator<Temporal.PlainDate> {
  if (s.kind === 'weekly') {
    const days = new Set(s.days.map((d) => WEEKDAY_NUMBER[d]));
    // One day back: a wall time late in the evening of the day before can be after `from` in another offset.
    for (let d = from.subtract({ days: 1 }); ; d = d.add({ days: 1 })) if (days.has(d.dayOfWeek)) yield d;
  }
  for (let m = from.with({ day: 1 }).subtract({ months: 1 }); ; m = m.add({ months: 1 })) yield monthlyDate(s, m);
}

/** The first scheduled instant strictly after `afterMs`. */
export function nextOccurrence(s: TCanarySchedule, afterMs: number): number {
  const local = Temporal.Instant.fromEpochMilliseconds(afterMs).toZonedDateTimeISO(s.time_zone).toPlainDate();
  for (const date of scheduledDates(s, local)) {
    const at = instantOf(date, s.time, s.time_zone);
    if (at > afterMs) return at;
  }
  throw new Error('unreachable');
}

/** The scheduled instants from `fromMs` (inclusive) up to `untilMs` (inclusive), at most `limit` of them. */
export function occurrencesBetween(s: TCanarySchedule, fromMs: number, untilMs: number, limit: number): number[] {
  const out: number[] = [];
  let at = nextOccurrence(s, fromMs - 1);
  while (at <= untilMs && out.length < limit) {
    out.push(at);
    at = nextOccurrence(s, at);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Words

const ORDINAL = (n: number) => `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

function listWords(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** 3600 → "1 hour", 7200 → "2 hours", 172800 → "2 days", 5400 → "90 minutes". */
export function graceWords(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} ${seconds === 86_400 ? 'day' : 'days'}`;
  if (seconds % 3600 === 0) return `${seconds / 3600} ${seconds === 3600 ? 'hour' : 'hours'}`;
  const minutes = Math.round(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** "Every Monday and Thursday by 10:00 (Europe/Berlin), reminded 1 hour before". */
export function scheduleWords(s: TCanarySchedule): string {
  const when =
    s.kind === 'weekly'
      ? s.days.length === 7
        ? 'Every day'
        : `Every ${listWords([...s.days].sort((a, b) => WEEKDAY_NUMBER[a] - WEEKDAY_NUMBER[b]).map((d) => WEEKDAY_NAMES[d]))}`
      : s.kind === 'monthly_day'
        ? s.day >= 29
          ? `On the ${ORDINAL(s.day)} of each month (or its last day)`
          : `On the ${ORDINAL(s.day)} of each month`
        : `On the ${s.week} ${WEEKDAY_NAMES[s.weekday]} of each month`;
  return `${when} by ${s.time} (${s.time_zone}), reminded ${graceWords(s.grace_seconds)} before`;
}
