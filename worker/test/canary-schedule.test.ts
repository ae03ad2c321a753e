import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canaryHealth, deadlineAfter } from '../src/contracts/canary-health';
import {
  maxGraceSeconds,
  nextOccurrence,
  occurrencesBetween,
  scheduleWords,
  type TCanarySchedule,
  WEEKDAYS,
  ZCanarySchedule,
} from '../src/contracts/canary-schedule';
import { DAY, daysInMonth, isScheduledDay, localParts, oracleInstant, oracleNext, oracleOccurrences, ymd } from './helpers/calendar-oracle';

/**
 * Calendar deadlines (docs/decisions/calendar-schedules.md), run inside workerd so the zone rules are the
 * runtime's own. The product computes them with Temporal; these properties check them against an
 * independent oracle built on nothing but `Intl.DateTimeFormat` offsets: the instants a wall time has in
 * a zone (none in a spring-forward gap, two in a fall-back overlap), the later one when there are two,
 * and, in a gap, the wall time read with the offset before the gap (RFC 5545) — never earlier than stated.
 */
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'America/Santiago', 'Asia/Kolkata', 'Pacific/Apia', 'UTC'] as const;

// ---- generators -------------------------------------------------------------------------------------

/** Wall times around DST changes (01:00–03:59, midnight for Santiago) weigh as much as any other. */
const arbTime = fc
  .oneof(
    fc.record({ h: fc.constantFrom(0, 1, 2, 3), m: fc.constantFrom(0, 15, 30, 45, 59) }),
    fc.record({ h: fc.integer({ min: 0, max: 23 }), m: fc.integer({ min: 0, max: 59 }) }),
  )
  .map(({ h, m }) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const arbCommon = fc.record({ time: arbTime, time_zone: fc.constantFrom(...ZONES) });
const arbSchedule: fc.Arbitrary<TCanarySchedule> = fc
  .oneof(
    fc.record({ kind: fc.constant('weekly' as const), days: fc.uniqueArray(fc.constantFrom(...WEEKDAYS), { minLength: 1, maxLength: 7 }) }),
    fc.record({ kind: fc.constant('monthly_day' as const), day: fc.oneof(fc.constantFrom(1, 28, 29, 30, 31), fc.integer({ min: 1, max: 31 })) }),
    fc.record({
      kind: fc.constant('monthly_weekday' as const),
      week: fc.constantFrom('first', 'second', 'third', 'fourth', 'last' as const),
      weekday: fc.constantFrom(...WEEKDAYS),
    }),
  )
  .chain((rule) =>
    fc
      .tuple(arbCommon, fc.double({ min: 0, max: 1, noNaN: true }))
      .map(([c, f]) => ({ ...rule, ...c, grace_seconds: 60 + Math.floor(f * (maxGraceSeconds(rule) - 60)) }) as TCanarySchedule),
  );
/**
 * Instants from 2000 to 2037, half of them within days of the zones' DST changes (late March / early
 * April, September / October / November) or of 29 February, the rest anywhere.
 */
const SPECIAL_DAYS: [number, number][] = [
  [2, 28],
  [2, 29],
  [3, 1],
  [3, 10],
  [3, 27],
  [3, 30],
  [4, 3],
  [4, 6],
  [9, 6],
  [9, 27],
  [10, 4],
  [10, 27],
  [11, 3],
];
const arbInstant = fc.oneof(
  fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2037, 11, 31) }),
  fc
    .record({
      year: fc.integer({ min: 2000, max: 2037 }),
      special: fc.constantFrom(...SPECIAL_DAYS),
      shift: fc.integer({ min: -3 * DAY, max: 3 * DAY }),
    })
    .map(({ year, special: [m, d], shift }) => Date.UTC(year, m - 1, Math.min(d, daysInMonth(year, m))) + shift),
);

// ---- properties ---------------------------------------------------------------------------------------

describe('calendar deadlines over time zones and years (fast-check, against an Intl oracle)', () => {
  it('the deadline is the first scheduled wall time after the check-in plus grace, exactly as the oracle reads it', () => {
    fc.assert(
      fc.property(arbSchedule, arbInstant, (s, checkIn) => {
        const deadline = deadlineAfter({ intervalSeconds: 86_400, schedule: s }, checkIn);
        expect(deadline).toBe(oracleNext(s, checkIn + s.grace_seconds * 1000));
      }),
      { numRuns: 1000 },
    );
  });

  it('a deadline is never earlier than the stated wall time on its day, and lands on a scheduled local date', () => {
    fc.assert(
      fc.property(arbSchedule, arbInstant, (s, after) => {
        const at = nextOccurrence(s, after);
        expect(at).toBeGreaterThan(after);
        const local = localParts(s.time_zone, at);
        const [hh, mm] = s.time.split(':').map(Number) as [number, number];
        const day = Date.UTC(local.y, local.m - 1, local.d);
        if (isScheduledDay(s, day)) {
          // On its own day: at the stated wall time, or later (a gap moved it forward by the gap).
          expect(local.hh * 60 + local.mm).toBeGreaterThanOrEqual(hh * 60 + mm);
          // …and never earlier than any instant that wall time has on that day (an overlap's later one).
          expect(at).toBeGreaterThanOrEqual(oracleInstant(s.time_zone, local.y, local.m, local.d, s.time));
        } else {
          // Only a gap can move it off its day: the day before was scheduled and its wall time did not exist.
          const prev = ymd(day - DAY);
          expect(isScheduledDay(s, day - DAY)).toBe(true);
          expect(oracleInstant(s.time_zone, prev.y, prev.m, prev.d, s.time)).toBe(at);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('over a whole year no scheduled day is skipped and none is doubled', () => {
    fc.assert(
      fc.property(arbSchedule, fc.integer({ min: 2000, max: 2036 }), (s, year) => {
        const from = Date.UTC(year, 0, 1);
        const until = Date.UTC(year + 1, 0, 1);
        expect(occurrencesBetween(s, from, until, 400)).toEqual(oracleOccurrences(s, from, until));
      }),
      { numRuns: 60 },
    );
  });

  it('misses after a calendar deadline fall on the following scheduled instants', () => {
    fc.assert(
      fc.property(arbSchedule, arbInstant, fc.integer({ min: 0, max: 90 * DAY }), (s, checkIn, late) => {
        const state = { lastCheckInMs: checkIn, intervalSeconds: 86_400, schedule: s };
        const deadline = deadlineAfter(state, checkIn);
        const now = deadline + late;
        const health = canaryHealth(state, now);
        const due = oracleOccurrences(s, deadline, now);
        expect(health.status).toBe('missed');
        expect(health.misses).toBe(due.length);
        expect(health.nextMissMs).toBe(oracleNext(s, now));
        // Before the deadline: grace for the stated grace period, active before it.
        expect(canaryHealth(state, deadline - 1).status).toBe('grace');
        expect(canaryHealth(state, deadline - s.grace_seconds * 1000 - 1).status).toBe('active');
      }),
      { numRuns: 200 },
    );
  });
});

describe('calendar deadlines on named days', () => {
  const at = (iso: string) => Date.parse(iso);
  const berlinWeekly = (time: string): TCanarySchedule => ({ kind: 'weekly', days: ['sun'], time, time_zone: 'Europe/Berlin', grace_seconds: 3600 });

  it('moves a wall time in the spring-forward gap forward by the gap (Berlin, 02:30 on 29 March 2026 is 03:30 CEST)', () => {
    expect(new Date(nextOccurrence(berlinWeekly('02:30'), at('2026-03-28T12:00:00Z'))).toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it('takes the later instant of a wall time repeated at fall-back (Berlin, 02:30 on 25 October 2026 is 02:30 CET)', () => {
    expect(new Date(nextOccurrence(berlinWeekly('02:30'), at('2026-10-24T12:00:00Z'))).toISOString()).toBe('2026-10-25T01:30:00.000Z');
  });

  it('handles the 30-minute DST of Lord Howe Island (02:15 on 4 October 2026 is 02:45 +11:00)', () => {
    const s: TCanarySchedule = { kind: 'weekly', days: ['sun'], time: '02:15', time_zone: 'Australia/Lord_Howe', grace_seconds: 600 };
    expect(new Date(nextOccurrence(s, at('2026-10-03T00:00:00Z'))).toISOString()).toBe('2026-10-03T15:45:00.000Z');
  });

  it('keeps the 29th of the month on 29 February in a leap year and on the 28th otherwise', () => {
    const s: TCanarySchedule = { kind: 'monthly_day', day: 29, time: '09:00', time_zone: 'Asia/Kolkata', grace_seconds: 3600 };
    expect(new Date(nextOccurrence(s, at('2028-02-01T00:00:00Z'))).toISOString()).toBe('2028-02-29T03:30:00.000Z');
    expect(new Date(nextOccurrence(s, at('2027-02-01T00:00:00Z'))).toISOString()).toBe('2027-02-28T03:30:00.000Z');
  });

  it('finds the first Monday and the last Friday of a month', () => {
    const first: TCanarySchedule = {
      kind: 'monthly_weekday',
      week: 'first',
      weekday: 'mon',
      time: '10:00',
      time_zone: 'America/New_York',
      grace_seconds: 3600,
    };
    const last: TCanarySchedule = { kind: 'monthly_weekday', week: 'last', weekday: 'fri', time: '17:00', time_zone: 'America/New_York', grace_seconds: 3600 };
    expect(new Date(nextOccurrence(first, at('2026-11-28T00:00:00Z'))).toISOString()).toBe('2026-12-07T15:00:00.000Z');
    expect(new Date(nextOccurrence(last, at('2026-11-01T00:00:00Z'))).toISOString()).toBe('2026-11-27T22:00:00.000Z');
  });

  it('a check-in inside the grace window counts for that deadline; before it, the deadline stays', () => {
    const s: TCanarySchedule = { kind: 'weekly', days: ['mon'], time: '10:00', time_zone: 'Europe/Berlin', grace_seconds: 7200 };
    const state = { intervalSeconds: 604_800, schedule: s };
    // Monday 30 November 2026, 10:00 CET = 09:00Z; grace from 07:00Z.
    expect(new Date(deadlineAfter(state, at('2026-11-30T06:59:00Z'))).toISOString()).toBe('2026-11-30T09:00:00.000Z');
    expect(new Date(deadlineAfter(state, at('2026-11-30T07:01:00Z'))).toISOString()).toBe('2026-12-07T09:00:00.000Z');
  });

  it('says the schedule in words', () => {
    expect(scheduleWords({ kind: 'weekly', days: ['thu', 'mon'], time: '10:00', time_zone: 'Europe/Berlin', grace_seconds: 3600 })).toBe(
      'Every Monday and Thursday by 10:00 (Europe/Berlin), reminded 1 hour before',
    );
    expect(scheduleWords({ kind: 'monthly_weekday', week: 'first', weekday: 'mon', time: '09:30', time_zone: 'UTC', grace_seconds: 86_400 })).toBe(
      'On the first Monday of each month by 09:30 (UTC), reminded 1 day before',
    );
  });
});

describe('the schedule contract', () => {
  const base = { kind: 'weekly', days: ['mon'], time: '10:00', time_zone: 'Europe/Berlin' };
  const issues = (v: unknown) => {
    const r = ZCanarySchedule.safeParse(v);
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };

  it('accepts a weekly rule with a default grace of one hour', () => {
    expect(ZCanarySchedule.parse(base)).toMatchObject({ grace_seconds: 3600 });
  });

  it('refuses an unknown time zone, a bare offset, a wall time out of range, no weekday and a repeated one', () => {
    expect(issues({ ...base, time_zone: 'Mars/Olympus_Mons' })[0]).toMatch(/IANA time zone/);
    expect(issues({ ...base, time_zone: '+02:00' })[0]).toMatch(/IANA time zone/);
    expect(issues({ ...base, time: '24:00' })[0]).toMatch(/HH:MM/);
    expect(issues({ ...base, days: [] })[0]).toMatch(/at least one weekday/);
    expect(issues({ ...base, days: ['mon', 'mon'] })[0]).toMatch(/repeat/);
  });

  it('refuses a grace period longer than half the shortest gap between scheduled days', () => {
    expect(issues({ ...base, days: ['mon', 'tue'], grace_seconds: 12 * 3600 })).toEqual([]);
    expect(issues({ ...base, days: ['mon', 'tue'], grace_seconds: 12 * 3600 + 1 })[0]).toMatch(/at most 43200/);
  });
});
