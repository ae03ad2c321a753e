import { describe, expect, it } from 'vitest';
import { effectiveDeadline, markFired, MAX_WAKE_MS, NO_ALERTS_FIRED, planCheckInAlerts, type FiredAlerts } from './schedule';

const D = Date.parse('2026-05-14T18:00:00Z');

/** Replays the hook's loop: plan, record what fired, jump to the next wake-up. */
function replay(deadlineMs: number, fromMs: number, untilMs: number, fired: FiredAlerts = NO_ALERTS_FIRED) {
  const shown: Array<{ kind: string; atMs: number }> = [];
  let now = fromMs;
  for (let i = 0; i < 1000 && now <= untilMs; i++) {
    const plan = planCheckInAlerts(deadlineMs, now, fired);
    for (const kind of plan.due) shown.push({ kind, atMs: now });
    fired = markFired(fired, plan.due, deadlineMs);
    if (plan.wakeInMs === null) break;
    now += plan.wakeInMs;
  }
  return { shown, fired };
}

describe('planCheckInAlerts', () => {
  it('wakes 60 s before the deadline for the reminder, then at the deadline', () => {
    const early = planCheckInAlerts(D, D - 3_600_000, NO_ALERTS_FIRED);
    expect(early).toEqual({ due: [], wakeInMs: 3_600_000 - 60_000, missed: false });
    expect(planCheckInAlerts(D, D - 60_000, NO_ALERTS_FIRED)).toEqual({ due: ['upcoming'], wakeInMs: 60_000, missed: false });
    expect(planCheckInAlerts(D, D, NO_ALERTS_FIRED)).toEqual({ due: ['missed'], wakeInMs: null, missed: true });
  });

  it("shows 'Upcoming check-in' at deadline − 60 s and 'Missed check-in' once at the deadline", () => {
    const { shown } = replay(D, D - 5 * 3_600_000, D + 7 * 86_400_000);
    expect(shown).toEqual([
      { kind: 'upcoming', atMs: D - 60_000 },
      { kind: 'missed', atMs: D },
    ]);
  });

  it('never repeats an alert for the same deadline', () => {
    const fired = markFired(markFired(NO_ALERTS_FIRED, ['upcoming'], D), ['missed'], D);
    expect(planCheckInAlerts(D, D - 30_000, fired).due).toEqual([]);
    expect(planCheckInAlerts(D, D + 1, fired).due).toEqual([]);
    expect(planCheckInAlerts(D, D + 86_400_000, fired)).toEqual({ due: [], wakeInMs: null, missed: true });
  });

  it('re-arms both alerts when a check-in moves the deadline', () => {
    const first = replay(D, D - 120_000, D + 5000);
    expect(first.shown.map((s) => s.kind)).toEqual(['upcoming', 'missed']);
    const next = D + 86_400_000;
    const afterCheckIn = planCheckInAlerts(next, D + 10_000, first.fired);
    expect(afterCheckIn.missed).toBe(false);
    expect(replay(next, D + 10_000, next + 1000, first.fired).shown).toEqual([
      { kind: 'upcoming', atMs: next - 60_000 },
      { kind: 'missed', atMs: next },
    ]);
  });

  it('on a page opened inside the last minute, reminds at once; after the deadline, only the miss', () => {
    expect(planCheckInAlerts(D, D - 10_000, NO_ALERTS_FIRED).due).toEqual(['upcoming']);
    expect(planCheckInAlerts(D, D + 3_600_000, NO_ALERTS_FIRED).due).toEqual(['missed']);
  });

  it('caps long waits so a 400-day interval never overflows setTimeout', () => {
    expect(planCheckInAlerts(D, D - 400 * 86_400_000, NO_ALERTS_FIRED).wakeInMs).toBe(MAX_WAKE_MS);
    expect(MAX_WAKE_MS).toBeLessThan(2 ** 31 - 1);
  });

  it('has nothing to plan without a canary', () => {
    expect(planCheckInAlerts(null, D, NO_ALERTS_FIRED)).toEqual({ due: [], wakeInMs: null, missed: false });
  });
});

describe('effectiveDeadline', () => {
  it('uses a simulated miss when it is sooner, and the server deadline otherwise', () => {
    expect(effectiveDeadline(D, null)).toBe(D);
    expect(effectiveDeadline(D, D - 1000)).toBe(D - 1000);
    expect(effectiveDeadline(D, D + 1000)).toBe(D);
    expect(effectiveDeadline(null, D)).toBe(D);
    expect(effectiveDeadline(null, null)).toBeNull();
  });
});
