import { type TCanarySchedule, WEEKDAYS } from '../../src/contracts/canary-schedule';

/**
 * An independent reading of calendar schedules, built on nothing but `Intl.DateTimeFormat` offsets (the
 * product uses Temporal): the instants a wall time has in a zone (none in a spring-forward gap, two in a
 * fall-back overlap), the later one when there are two, and in a gap the wall time read with the offset
 * before the gap (RFC 5545) — docs/decisions/calendar-schedules.md. Used by the property tests
 * (canary-schedule.test.ts) and the canary model (helpers/canary-model.ts).
 */
export const HOUR = 3600_000;
export const DAY = 24 * HOUR;

const formatters = new Map<string, Intl.DateTimeFormat>();
export function localParts(zone: string, at: number) {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return { y: Number(p.year), m: Number(p.month), d: Number(p.day), hh: Number(p.hour), mm: Number(p.minute), ss: Number(p.second) };
}
/** The zone's UTC offset at an instant (ms). */
export function offsetAt(zone: string, at: number): number {
  const p = localParts(zone, at);
  return Date.UTC(p.y, p.m - 1, p.d, p.hh, p.mm, p.ss) - Math.floor(at / 1000) * 1000;
}
/** The instant the product should give a wall time on a local date: the later valid one, or in a gap the offset before it. */
export function oracleInstant(zone: string, y: number, m: number, d: number, time: string): number {
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  const before = offsetAt(zone, wall - DAY);
  const after = offsetAt(zone, wall + DAY);
  const valid = [...new Set([before, after])].map((o) => wall - o).filter((c) => offsetAt(zone, c) === wall - c);
  return valid.length ? Math.max(...valid) : wall - before;
}
/** Local calendar date of an instant in the zone, as a UTC-midnight day number for plain date stepping. */
export const localDay = (zone: string, at: number) => {
  const p = localParts(zone, at);
  return Date.UTC(p.y, p.m - 1, p.d);
};
export const ymd = (day: number) => {
  const t = new Date(day);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate(), dow: ((t.getUTCDay() + 6) % 7) + 1 };
};
export const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** Is this local date one of the schedule's days? */
export function isScheduledDay(s: TCanarySchedule, day: number): boolean {
  const { y, m, d, dow } = ymd(day);
  if (s.kind === 'weekly') return s.days.some((w) => WEEKDAYS.indexOf(w) + 1 === dow);
  if (s.kind === 'monthly_day') return d === Math.min(s.day, daysInMonth(y, m));
  const want = WEEKDAYS.indexOf(s.weekday) + 1;
  if (dow !== want) return false;
  if (s.week === 'last') return d + 7 > daysInMonth(y, m);
  return Math.ceil(d / 7) === ['first', 'second', 'third', 'fourth'].indexOf(s.week) + 1;
}
/** Every scheduled instant in [from, until], from the oracle, day by day (a day a zone skipped entirely folds into the next). */
export function oracleOccurrences(s: TCanarySchedule, from: number, until: number): number[] {
  const out = new Set<number>();
  for (let day = localDay(s.time_zone, from) - 2 * DAY; day <= localDay(s.time_zone, until) + DAY; day += DAY) {
    if (!isScheduledDay(s, day)) continue;
    const { y, m, d } = ymd(day);
    const at = oracleInstant(s.time_zone, y, m, d, s.time);
    if (at >= from && at <= until) out.add(at);
  }
  return [...out].sort((a, b) => a - b);
}
export const oracleNext = (s: TCanarySchedule, after: number) => oracleOccurrences(s, after + 1, after + 70 * DAY)[0]!;
