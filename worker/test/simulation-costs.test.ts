import { describe, expect, it } from 'vitest';
import { emptyUsage, formatCosts, storageAtAge } from './simulation/costs';

/** Ten people over 100 days: D1 held 12,000 bytes a user halfway and 20,000 at the end; the objects 12,000 throughout. */
function tenPeopleOverAHundredDays() {
  return {
    ...emptyUsage(),
    d1Bytes: 10 * 20_000 + 5_000,
    outboxBytes: 5_000,
    doBytesByObject: { a: 60_000, b: 60_000 },
    storedAtHalf: { day: 50, d1Bytes: 10 * 12_000, doBytes: 120_000 },
  };
}

describe('the simulation’s storage cost at an account’s age', () => {
  it('grows the level at the run’s end at its second half’s rate: 160 bytes a user-day to 62,400 bytes a user at a year', () => {
    const aged = storageAtAge(tenPeopleOverAHundredDays(), 100, 10, 365)!;
    // 62,400 bytes a user, 62.4 MB per 1,000 users at $0.75 a GB-month; the objects did not grow: 12 MB at $0.20.
    expect(aged.d1KbPerUserDay).toBeCloseTo(0.16, 10);
    expect(aged.d1Usd).toBeCloseTo(0.0624 * 0.75, 10);
    expect(aged.doUsd).toBeCloseTo(0.012 * 0.2, 10);
  });

  it('at the run’s own length is the run’s own level, and is not told for a run with no halfway look', () => {
    const u = tenPeopleOverAHundredDays();
    expect(storageAtAge(u, 100, 10, 100)!.d1Usd).toBeCloseTo(0.02 * 0.75, 10);
    expect(storageAtAge({ ...u, storedAtHalf: null }, 100, 10, 365)).toBeNull();
    expect(formatCosts({ ...u, storedAtHalf: null }, 1000, 10)).not.toMatch(/days of account age/);
  });

  it('prints the total at a year with the storage lines replaced by the grown ones', () => {
    const report = formatCosts(tenPeopleOverAHundredDays(), 1000, 10);
    // Nothing but storage here: the year's total is the grown storage alone.
    expect(report).toContain(
      "at 365 days of account age (storage grown on at this run's second-half rate, D1 0.16 KB a user-day): D1 storage $0.0468, objects' storage $0.0024 — total $0.0492",
    );
  });
});
