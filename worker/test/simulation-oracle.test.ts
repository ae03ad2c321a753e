import { describe, expect, it } from 'vitest';
import type { BehaviourLog, HeirLog, MessageLog, PersonLog, RuleLog } from './simulation/behaviour-log';
import {
  afterQuietHours,
  birthdayAfter,
  deathOf,
  expectedRelease,
  judge,
  judgeDeletion,
  judgeGuardianConsent,
  judgeHeirs,
  judgeWarnings,
  judgeYearly,
  LATENESS_BOUND_MS,
  unjustified,
  vetoWindowsOf,
} from './simulation/oracle';
import { DAY, HOUR } from './simulation/population';

/**
 * Known answers for the simulation's oracle (simulation/oracle.ts) where the sender withdraws their messages
 * consent: worked out by hand from the rules it states (docs/decisions/data-rights.md), so a mistake in the
 * oracle cannot hide behind the engine agreeing with it. A daily owner who made their canary at 0 and was
 * reminded in time (0.8 days in), so misses count at 1, 2, 3… days unless they check in.
 */
const END = 20 * DAY;

function owner(
  events: {
    checkIns?: number[];
    consent?: [number, boolean][];
    reminders?: number[];
    deathVotes?: number[];
    holds?: { at: number; until: number }[];
    deadman?: { hours: number; warnings: number[]; erasedAt: number | null };
    quietHours?: PersonLog['quietHours'];
  } = {},
): PersonLog {
  return {
    index: 0,
    userId: 'owner',
    email: 'owner@example.test',
    phone: null,
    push: null,
    via: 'token',
    canaries: [
      {
        canaryId: 'canary',
        token: 'token',
        name: 'me',
        intervalMs: DAY,
        createdAt: 0,
        checkIns: events.checkIns ?? [],
        warnings: events.reminders ?? [0.8 * DAY],
        reminders: events.reminders ?? [0.8 * DAY],
      },
    ],
    checkIns: events.checkIns ?? [],
    diesAt: null,
    absences: [],
    consentChanges: (events.consent ?? []).map(([at, consent]) => ({ at, consent })),
    guardianConsentChanges: [],
    askedAbout: [],
    reportAttempts: [],
    deletionRequestedAt: null,
    deathVotes: events.deathVotes ?? [],
    holds: events.holds ?? [],
    quorum: 1,
    reporter: events.deathVotes?.length ? 'guardian' : null,
    subscription: null,
    deadman: events.deadman ? { ...events.deadman, setAt: 0 } : null,
    quietHours: events.quietHours ?? { start: '22:00', end: '07:00', timeZone: 'UTC' },
    heirs: [],
  };
}

const message = (rules: RuleLog[], deliverAt = 0): MessageLog => ({
  id: 'm',
  sender: 0,
  recipient: 1,
  createdAt: 0,
  deliverAt,
  rules,
  channel: 'email',
  releasedAt: null,
  channelDeliveries: 0,
});

/** The release the oracle expects, without the spans it was armed (the dead-man deletion's concern). */
const outcome = ({ armings: _, ...release }: ReturnType<typeof expectedRelease>) => release;
const expected = (m: MessageLog, p: PersonLog) => outcome(expectedRelease(m, p, END, LATENESS_BOUND_MS));

describe('the oracle, when the sender withdraws their messages consent', () => {
  it('releases a letter whose date falls in the pause when messages are allowed again', () => {
    const p = owner({
      consent: [
        [2 * DAY, false],
        [5 * DAY, true],
      ],
    });
    expect(expected(message([], 3 * DAY), p)).toEqual({ at: 5 * DAY, ambiguous: false });
  });

  it('never releases a letter whose date falls in a pause that does not end', () => {
    const p = owner({ consent: [[2 * DAY, false]] });
    expect(expected(message([], 3 * DAY), p)).toEqual({ at: null, ambiguous: false });
  });

  it('drops the misses that count in the pause, and arms from the current run of misses when it ends', () => {
    const p = owner({
      consent: [
        [0.5 * DAY, false],
        [2.5 * DAY, true],
      ],
    });
    // Misses 1 and 2 counted at 1 and 2 days, in the pause; at 2.5 days two misses stand: missed_checkins(2) arms then.
    expect(expected(message([{ type: 'missed_checkins', n: 2, windowMs: DAY }]), p)).toEqual({ at: 3.5 * DAY, ambiguous: false });
    // Not without the pause: it would have armed at 2 days.
    expect(expected(message([{ type: 'missed_checkins', n: 2, windowMs: DAY }]), owner())).toEqual({ at: 3 * DAY, ambiguous: false });
  });

  it('arms nothing at the end of the pause when a check-in ended the run of misses', () => {
    const p = owner({
      checkIns: [2.2 * DAY],
      consent: [
        [0.5 * DAY, false],
        [2.5 * DAY, true],
      ],
    });
    expect(expected(message([{ type: 'missed_checkins', n: 1, windowMs: 0 }]), p)).toEqual({ at: null, ambiguous: false });
  });

  it('releases an armed message whose cancel window ended in the pause when messages are allowed again', () => {
    const p = owner({
      consent: [
        [1.5 * DAY, false],
        [3 * DAY, true],
      ],
    });
    // Armed by the first miss at 1 day with a day's window: due at 2 days, in the pause.
    expect(expected(message([{ type: 'missed_checkins', n: 1, windowMs: DAY }]), p)).toEqual({ at: 3 * DAY, ambiguous: false });
  });

  it('lets a check-in in the pause disarm an armed message', () => {
    const p = owner({
      checkIns: [1.7 * DAY],
      consent: [
        [1.5 * DAY, false],
        [3 * DAY, true],
      ],
    });
    expect(expected(message([{ type: 'missed_checkins', n: 1, windowMs: DAY }]), p)).toEqual({ at: null, ambiguous: false });
  });

  it('arms a fixed date that passed in the pause when it ends, with its whole window', () => {
    // Checking in meanwhile (none inside the window, which would disarm it).
    const p = owner({
      checkIns: [0.5 * DAY, 1.3 * DAY, 2.1 * DAY, 3.8 * DAY],
      consent: [
        [0.7 * DAY, false],
        [2.5 * DAY, true],
      ],
    });
    expect(expected(message([{ type: 'fixed_date', at: 1.5 * DAY, windowMs: DAY }]), p)).toEqual({ at: 3.5 * DAY, ambiguous: false });
  });

  it('holds a release in the pause to be false, and one at its end to be allowed', () => {
    const p = owner({
      consent: [
        [1.5 * DAY, false],
        [3 * DAY, true],
      ],
    });
    const m = message([{ type: 'missed_checkins', n: 1, windowMs: DAY }]);
    expect(unjustified(m, p, 2 * DAY, LATENESS_BOUND_MS)).toMatch(/consent was withdrawn/);
    expect(unjustified(m, p, 3 * DAY, LATENESS_BOUND_MS)).toBeNull();
  });
});

describe('the oracle, judging a release', () => {
  it('is not put in doubt by what happens long after the message was released', () => {
    // Released at the first miss (1 day). Days later a check-in an hour after a miss counted could go either
    // way for the engine, but the message was out long before.
    const p = owner({ checkIns: [5 * DAY, 6 * DAY + HOUR], reminders: [0.8 * DAY, 5.8 * DAY] });
    expect(expected(message([{ type: 'missed_checkins', n: 1, windowMs: 0 }]), p)).toEqual({ at: DAY, ambiguous: false });
  });

  it('is put in doubt by a check-in within the lateness bound of the instant the miss counts', () => {
    const p = owner({ checkIns: [DAY + HOUR] });
    expect(expected(message([{ type: 'missed_checkins', n: 1, windowMs: 0 }]), p).ambiguous).toBe(true);
  });
});

describe('the oracle, after a guardian reports the death', () => {
  const afterDeath = message([{ type: 'delay_after_death', delayMs: DAY, windowMs: 0 }]);

  it('confirms the death when the 72-hour veto window ends unrefuted, and releases the delay after it', () => {
    const p = owner({ deathVotes: [2 * DAY] });
    expect(deathOf(p, LATENESS_BOUND_MS)).toEqual({ at: 5 * DAY, ambiguous: false });
    expect(expected(afterDeath, p)).toEqual({ at: 6 * DAY, ambiguous: false });
  });

  it('holds the death refuted by a check-in in the window, and releases nothing', () => {
    const p = owner({ deathVotes: [2 * DAY], checkIns: [3 * DAY] });
    expect(deathOf(p, LATENESS_BOUND_MS)).toEqual({ at: null, ambiguous: false });
    expect(expected(afterDeath, p)).toEqual({ at: null, ambiguous: false });
    expect(unjustified(afterDeath, p, 6 * DAY, LATENESS_BOUND_MS)).toBe('no death was confirmed');
  });

  it('leaves it either way when the check-in comes within the bound of the window’s end', () => {
    const p = owner({ deathVotes: [2 * DAY], checkIns: [5 * DAY - HOUR] });
    expect(deathOf(p, LATENESS_BOUND_MS).ambiguous).toBe(true);
    expect(expected(afterDeath, p).ambiguous).toBe(true);
  });

  it('holds a release before the delay has passed to be false', () => {
    const p = owner({ deathVotes: [2 * DAY] });
    expect(unjustified(afterDeath, p, 5.5 * DAY, LATENESS_BOUND_MS)).toBe('the delay after the death and its window had not passed');
  });
});

/** An owner whose two guardians must both report (quorum 2): the report opens at the first vote, the window at the second. */
describe('the oracle, with a quorum of two guardians', () => {
  const afterDeath = message([{ type: 'delay_after_death', delayMs: DAY, windowMs: 0 }]);
  const twoGuardians = (events: Parameters<typeof owner>[0]): PersonLog => ({ ...owner(events), quorum: 2 });

  it('opens the veto window at the second vote, not the first', () => {
    const p = twoGuardians({ deathVotes: [2 * DAY, 3 * DAY] });
    expect(vetoWindowsOf(p, LATENESS_BOUND_MS)).toEqual([{ at: 3 * DAY, ambiguous: false }]);
    expect(deathOf(p, LATENESS_BOUND_MS)).toEqual({ at: 6 * DAY, ambiguous: false });
    expect(unjustified(afterDeath, p, 6.5 * DAY, LATENESS_BOUND_MS)).toBe('the delay after the death and its window had not passed');
  });

  it('opens none on one vote', () => {
    expect(deathOf(twoGuardians({ deathVotes: [2 * DAY] }), LATENESS_BOUND_MS)).toEqual({ at: null, ambiguous: false });
  });

  it('opens none when a check-in between the votes refuted the report the first opened: the second starts a new one', () => {
    const p = twoGuardians({ deathVotes: [2 * DAY, 3 * DAY], checkIns: [2.5 * DAY] });
    expect(vetoWindowsOf(p, LATENESS_BOUND_MS)).toEqual([]);
    expect(expected(afterDeath, p)).toEqual({ at: null, ambiguous: false });
    expect(unjustified(afterDeath, p, 7 * DAY, LATENESS_BOUND_MS)).toBe('no death was confirmed');
  });

  it('leaves it either way when that check-in comes within the bound of a vote', () => {
    const p = twoGuardians({ deathVotes: [2 * DAY, 3 * DAY], checkIns: [3 * DAY - HOUR] });
    expect(vetoWindowsOf(p, LATENESS_BOUND_MS)).toEqual([{ at: 3 * DAY, ambiguous: true }]);
    expect(deathOf(p, LATENESS_BOUND_MS).ambiguous).toBe(true);
  });
});

describe('the oracle, for a message written during the run', () => {
  const written = (at: number, rules: RuleLog[]): MessageLog => ({ ...message(rules), createdAt: at });

  it('arms it at once when the current run of misses already satisfies its rule', () => {
    // Misses 1 and 2 stand at 2.5 days: missed_checkins(2) with a day's window goes at 3.5 days.
    expect(expected(written(2.5 * DAY, [{ type: 'missed_checkins', n: 2, windowMs: DAY }]), owner())).toEqual({ at: 3.5 * DAY, ambiguous: false });
  });

  it('waits for the next miss when the current run is short of its rule', () => {
    // One miss stands at 1.5 days; the second counts at 2 days.
    expect(expected(written(1.5 * DAY, [{ type: 'missed_checkins', n: 2, windowMs: 0 }]), owner())).toEqual({ at: 2 * DAY, ambiguous: false });
  });
});

/**
 * The dead-man's switch (docs/server-rules.md): a daily owner who set a 48-hour switch at 0 and never checked in
 * passes it at day 2; a warning reaching them then makes the erasure due at day 3 (a full day later).
 */
describe('the oracle, for a dead-man deletion', () => {
  const log = (person: PersonLog, extra: Partial<BehaviourLog> = {}): BehaviourLog => ({
    seed: 0,
    start: 0,
    end: END,
    people: [person, owner()],
    messages: [],
    outages: [],
    ...extra,
  });
  const verdict = (deadman: { warnings: number[]; erasedAt: number | null }, checkIns: number[] = [], extra: Partial<BehaviourLog> = {}) => {
    const person = owner({ checkIns, deadman: { hours: 48, ...deadman } });
    return judgeDeletion(person, log(person, extra));
  };

  it('holds an erasure a full day after the warning reached them to be due then', () => {
    expect(verdict({ warnings: [2 * DAY], erasedAt: 3 * DAY + 10 * 60_000 })).toMatchObject({ kind: 'erased', expectedAt: 3 * DAY });
  });

  it('holds an erasure less than a day after the warning, or with none, to be false', () => {
    expect(verdict({ warnings: [2 * DAY], erasedAt: 2.9 * DAY })?.kind).toBe('false deletion');
    expect(verdict({ warnings: [], erasedAt: 3 * DAY })?.kind).toBe('false deletion');
  });

  it('does not count a warning from before the deadline the last check-in set', () => {
    // A check-in at day 1 moves the deadline to day 3: the warning at day 2 belongs to nothing.
    expect(verdict({ warnings: [2 * DAY], erasedAt: 3.5 * DAY }, [1 * DAY])?.kind).toBe('false deletion');
  });

  it('holds a check-in in the final day to cancel it, and the next passing to be due', () => {
    // Cancelled at 2.5 days; the switch passes again at 4.5, warned then, due at 5.5 and never carried out.
    expect(verdict({ warnings: [2 * DAY, 4.5 * DAY], erasedAt: null }, [2.5 * DAY])).toMatchObject({ kind: 'missed deletion', expectedAt: 5.5 * DAY });
    expect(verdict({ warnings: [2 * DAY, 4.5 * DAY], erasedAt: 5.5 * DAY }, [2.5 * DAY])?.kind).toBe('erased');
  });

  it('is not due before the final day ends, and late beyond the bound after it', () => {
    expect(verdict({ warnings: [2 * DAY], erasedAt: null }, [], { end: 2.5 * DAY })?.kind).toBe('not due');
    expect(verdict({ warnings: [2 * DAY], erasedAt: 3 * DAY + LATENESS_BOUND_MS + HOUR })?.kind).toBe('late deletion');
  });

  it('leaves it either way when a check-in comes within the bound of the erasure', () => {
    expect(verdict({ warnings: [2 * DAY], erasedAt: null }, [3 * DAY + HOUR])?.kind).toBe('either way, kept');
  });

  it('lets the erasure wait for a release of theirs that came after the final day', () => {
    const person = owner({ deadman: { hours: 48, warnings: [2 * DAY], erasedAt: 3.6 * DAY } });
    const released = { ...message([{ type: 'fixed_date', at: 3.5 * DAY, windowMs: 0 }]), releasedAt: 3.5 * DAY };
    expect(judgeDeletion(person, log(person, { messages: [released] }))).toMatchObject({ kind: 'erased', expectedAt: 3.5 * DAY });
  });

  describe('while a release of theirs is under way', () => {
    // Armed at day 1 by its first miss, its cancel window five days long: released at day 6 unless they check in.
    const armed = message([{ type: 'missed_checkins', n: 1, windowMs: 5 * DAY }]);
    const judged = (deadman: { warnings: number[]; erasedAt: number | null }, events: Parameters<typeof owner>[0] = {}, end = END) => {
      const person = owner({ ...events, deadman: { hours: 48, ...deadman } });
      return judgeDeletion(person, log(person, { messages: [armed], end }));
    };

    it('waits for its release, then erases', () => {
      expect(judged({ warnings: [2 * DAY], erasedAt: 6 * DAY + 60_000 })).toMatchObject({ kind: 'erased', expectedAt: 6 * DAY });
      expect(judged({ warnings: [2 * DAY], erasedAt: null })).toMatchObject({ kind: 'missed deletion', expectedAt: 6 * DAY });
    });

    it('holds an erasure before the release to be false: it took the message with it', () => {
      expect(judged({ warnings: [2 * DAY], erasedAt: 3 * DAY + 60_000 })?.kind).toBe('false deletion');
    });

    it('is not due while the release is after the run ends', () => {
      expect(judged({ warnings: [2 * DAY], erasedAt: null }, {}, 5 * DAY)?.kind).toBe('not due');
    });

    it('is cancelled by a check-in while it waits', () => {
      expect(judged({ warnings: [2 * DAY], erasedAt: null }, { checkIns: [4 * DAY] }, 5.5 * DAY)?.kind).toBe('kept');
    });

    it('does not wait for a message paused by a withdrawn messages consent', () => {
      expect(judged({ warnings: [2 * DAY], erasedAt: 3 * DAY + 60_000 }, { consent: [[1.5 * DAY, false]] })).toMatchObject({
        kind: 'erased',
        expectedAt: 3 * DAY,
      });
    });
  });

  it('holds a switch that passed with no warning ever reaching them to be missed', () => {
    expect(verdict({ warnings: [], erasedAt: null })?.kind).toBe('missed deletion');
  });

  it('releases nothing of an erased sender that was due after the erasure, and still what was due before', () => {
    const person = owner({ deadman: { hours: 48, warnings: [2 * DAY], erasedAt: 3 * DAY } });
    const before = { ...message([{ type: 'missed_checkins', n: 1, windowMs: 0 }]), id: 'before', releasedAt: 1 * DAY };
    const after = { ...message([{ type: 'fixed_date', at: 10 * DAY, windowMs: 0 }]), id: 'after' };
    const [first, second] = judge(log(person, { messages: [before, after] }));
    expect(first).toMatchObject({ kind: 'released', expectedAt: 1 * DAY });
    expect(second).toMatchObject({ kind: 'not due', expectedAt: null });
  });
});

/** A vault item's birthday condition (docs/decisions/vault.md), worked out on a calendar. */
describe('the oracle, for a vault item given for a birthday', () => {
  it('releases it at 09:00 UTC on the first birthday after the confirmed death', () => {
    expect(new Date(birthdayAfter(Date.UTC(2027, 0, 10, 15), '01-20')).toISOString()).toBe('2027-01-20T09:00:00.000Z');
    expect(new Date(birthdayAfter(Date.UTC(2027, 0, 21, 15), '01-20')).toISOString()).toBe('2028-01-20T09:00:00.000Z');
  });

  it('releases it at once when the death is confirmed later on the birthday itself, and at 09:00 when earlier that day', () => {
    expect(new Date(birthdayAfter(Date.UTC(2027, 0, 20, 15), '01-20')).toISOString()).toBe('2027-01-20T15:00:00.000Z');
    expect(new Date(birthdayAfter(Date.UTC(2027, 0, 20, 3), '01-20')).toISOString()).toBe('2027-01-20T09:00:00.000Z');
  });

  it('keeps 29 February on 28 February in other years', () => {
    expect(new Date(birthdayAfter(Date.UTC(2027, 1, 1), '02-29')).toISOString()).toBe('2027-02-28T09:00:00.000Z');
    expect(new Date(birthdayAfter(Date.UTC(2028, 1, 1), '02-29')).toISOString()).toBe('2028-02-29T09:00:00.000Z');
  });

  it('holds a release before the death, or before the birthday that follows it, to be false', () => {
    const rules: RuleLog[] = [{ type: 'recipient_birthday', monthDay: '01-05', windowMs: 0 }];
    // Reported at day 1, confirmed at day 4 (the 72-hour window): 5 January is day 4 of a run from 1 January.
    const start = Date.UTC(2027, 0, 1);
    const p = owner({ deathVotes: [start + DAY] });
    const m = { ...message(rules), createdAt: start, deliverAt: start };
    expect(expectedRelease(m, p, start + END, LATENESS_BOUND_MS).at).toBe(Date.UTC(2027, 0, 5, 9));
    expect(unjustified(m, p, Date.UTC(2027, 0, 5, 8), LATENESS_BOUND_MS)).toBe('the first birthday after the death had not come');
    expect(unjustified(m, owner(), Date.UTC(2027, 0, 5, 10), LATENESS_BOUND_MS)).toBe('no death was confirmed');
    expect(unjustified(m, p, Date.UTC(2027, 0, 5, 9), LATENESS_BOUND_MS)).toBeNull();
  });
});

/**
 * A sender with two canaries (docs/server-rules.md: `missed_checkins(N)` fires when misses reach N on any of them,
 * and any check-in disarms): a daily one, "me", checked in by token every day at noon, and a weekly one, "backup",
 * never checked in — its deadline is day 7, its grace 1.4 days, its reminder reached them in time (day 5.6).
 */
describe('the oracle, for a sender with two canaries', () => {
  const daily = (until: number) => Array.from({ length: until }, (_, i) => (i + 0.5) * DAY);
  const WEEK = 7 * DAY;
  /** Grace starts a fifth of the interval before the deadline (written so, not as 5.6 days, to stay exact in floating point). */
  const graceStart = (deadline: number, interval: number) => deadline - interval / 5;
  const sender = (meCheckIns: number[], meReminders: number[]): PersonLog => {
    const p = owner({ checkIns: meCheckIns, reminders: meReminders });
    const reminder = graceStart(WEEK, WEEK);
    p.canaries.push({
      canaryId: 'backup',
      token: 'backup',
      name: 'backup',
      intervalMs: WEEK,
      createdAt: 0,
      checkIns: [],
      warnings: [reminder],
      reminders: [reminder],
    });
    return p;
  };
  const oneMiss = message([{ type: 'missed_checkins', n: 1, windowMs: DAY }]);

  it('arms on the misses of the canary that was left, whatever the other', () => {
    // "me" last checked in at day 6.5 and would count a miss at 7.5; "backup" counts its first at day 7: released at 8.
    expect(outcome(expectedRelease(oneMiss, sender(daily(7), [graceStart(7.5 * DAY, DAY)]), END, LATENESS_BOUND_MS))).toEqual({
      at: 8 * DAY,
      ambiguous: false,
    });
  });

  it('is disarmed by a check-in on the other canary, and armed again by the next miss of the one left', () => {
    // Armed at day 7 by "backup"; the check-in on "me" at 7.5 disarms it; "me" then warns no more (so never counts), and
    // "backup"'s second miss, at day 14, arms it again: released at 15.
    expect(outcome(expectedRelease(oneMiss, sender(daily(8), []), END, LATENESS_BOUND_MS))).toEqual({ at: 15 * DAY, ambiguous: false });
  });

  it('never releases while the other canary is checked in inside every cancel window', () => {
    expect(expectedRelease(oneMiss, sender(daily(20), []), END, LATENESS_BOUND_MS).at).toBeNull();
  });

  it('justifies a release only by a canary whose own misses were warned', () => {
    const p = sender(daily(8), []);
    expect(unjustified(oneMiss, p, 15 * DAY, LATENESS_BOUND_MS)).toBeNull();
    p.canaries[1]!.warnings = [];
    p.canaries[1]!.reminders = [];
    expect(unjustified(oneMiss, p, 15 * DAY, LATENESS_BOUND_MS)).toMatch(/"backup"'s cycle/);
  });
});

/**
 * A guardian's hold (docs/decisions/guardian-ladder.md): a report opened at day 1 ends its 72-hour window at day 4;
 * a hold placed in the window and in force past its end moves the confirmation to the hold's end.
 */
describe('the oracle, for a death report put on hold', () => {
  it('confirms at the end of a hold that outlasts the window', () => {
    expect(deathOf(owner({ deathVotes: [DAY], holds: [{ at: 1.5 * DAY, until: 6 * DAY }] }), LATENESS_BOUND_MS)).toEqual({ at: 6 * DAY, ambiguous: false });
  });

  it('confirms at the window’s end when the hold ended before it', () => {
    expect(deathOf(owner({ deathVotes: [DAY], holds: [{ at: 1.5 * DAY, until: 2 * DAY }] }), LATENESS_BOUND_MS).at).toBe(4 * DAY);
  });

  it('counts a hold placed before the report, unless a check-in ended it', () => {
    expect(deathOf(owner({ deathVotes: [DAY], holds: [{ at: 0.5 * DAY, until: 6 * DAY }] }), LATENESS_BOUND_MS).at).toBe(6 * DAY);
    expect(deathOf(owner({ deathVotes: [DAY], holds: [{ at: 0.2 * DAY, until: 6 * DAY }], checkIns: [0.5 * DAY] }), LATENESS_BOUND_MS).at).toBe(4 * DAY);
  });

  it('holds the report refuted by a check-in during the hold, after the window ended', () => {
    expect(deathOf(owner({ deathVotes: [DAY], holds: [{ at: 1.5 * DAY, until: 6 * DAY }], checkIns: [5 * DAY] }), LATENESS_BOUND_MS).at).toBeNull();
  });

  it('leaves it either way when the hold is placed within the bound of the window’s end', () => {
    expect(deathOf(owner({ deathVotes: [DAY], holds: [{ at: 4 * DAY - HOUR, until: 6 * DAY }] }), LATENESS_BOUND_MS)).toEqual({
      at: 6 * DAY,
      ambiguous: true,
    });
  });
});

/** A sender who asks to delete their account (docs/api.md "Deleting your account"): erased seven days after the request. */
describe('the oracle, for a sender who asked to leave', () => {
  it('releases what was due before their erasure, and nothing due after it', () => {
    const person = { ...owner(), deletionRequestedAt: 2 * DAY };
    const log: BehaviourLog = { seed: 0, start: 0, end: END, people: [person, owner()], messages: [], outages: [] };
    const before = { ...message([{ type: 'fixed_date', at: 5 * DAY, windowMs: 0 }]), id: 'before', releasedAt: 5 * DAY };
    const after = { ...message([{ type: 'fixed_date', at: 10 * DAY, windowMs: 0 }]), id: 'after' };
    const [first, second] = judge({ ...log, messages: [before, after] });
    expect(first).toMatchObject({ kind: 'released', expectedAt: 5 * DAY });
    expect(second).toMatchObject({ kind: 'not due', expectedAt: null });
  });
});

describe('the oracle, for a deadline its owner let pass', () => {
  // The daily owner made their canary at 0 (midnight UTC) and never checks in: grace starts at 0.8 days (19:12).
  const warningsOf = (person: PersonLog, outages: BehaviourLog['outages'] = []) =>
    judgeWarnings({ seed: 0, start: 0, end: END, people: [person], messages: [], outages }).map((w) => [w.deadline, w.kind, w.dueBy]);

  // Quiet only from 01:00 to 06:00: none of it within the bound of grace's start.
  const lateQuiet = { start: '01:00', end: '06:00', timeZone: 'UTC' };

  it('finds them warned by a grace reminder that reached them in time', () => {
    expect(warningsOf(owner({ quietHours: lateQuiet }))).toEqual([[DAY, 'warned', 0.8 * DAY + LATENESS_BOUND_MS]]);
  });

  it('finds them unwarned when no warning reached them, or none within the bound of grace’s start', () => {
    expect(warningsOf(owner({ quietHours: lateQuiet, reminders: [] }))).toEqual([[DAY, 'unwarned', 0.8 * DAY + LATENESS_BOUND_MS]]);
    expect(warningsOf(owner({ quietHours: lateQuiet, reminders: [0.8 * DAY + LATENESS_BOUND_MS + 60_000] }))).toEqual([
      [DAY, 'unwarned', 0.8 * DAY + LATENESS_BOUND_MS],
    ]);
  });

  it('lets the reminder wait for 07:00 when their quiet hours (22:00) begin within the bound of grace’s start (19:12)', () => {
    expect(warningsOf(owner({ reminders: [DAY + 7 * HOUR] }))).toEqual([[DAY, 'warned', DAY + 7 * HOUR + LATENESS_BOUND_MS]]);
  });

  it('lets a warning wait for the end of their quiet hours, or of an outage', () => {
    // Quiet from 18:00 to 07:00: grace starts in them, so the reminder is due at 07:00 the next day.
    const quiet = { start: '18:00', end: '07:00', timeZone: 'UTC' };
    expect(warningsOf(owner({ quietHours: quiet, reminders: [DAY + 8 * HOUR] }))).toEqual([[DAY, 'warned', DAY + 7 * HOUR + LATENESS_BOUND_MS]]);
    // Grace starts at 19:12 and quiet hours at 20:00, within the bound: the engine may send it then, so 07:00 too.
    expect(warningsOf(owner({ quietHours: { ...quiet, start: '20:00' }, reminders: [DAY + 8 * HOUR] }))).toEqual([
      [DAY, 'warned', DAY + 7 * HOUR + LATENESS_BOUND_MS],
    ]);
    // Email down from 19:00 to 23:00 (quiet from 22:00): the reminder waits for 07:00.
    expect(warningsOf(owner({ reminders: [DAY + 7 * HOUR] }), [{ from: 19 * HOUR, to: 23 * HOUR }])).toEqual([
      [DAY, 'warned', DAY + 7 * HOUR + LATENESS_BOUND_MS],
    ]);
  });

  it('lets a warning wait for quiet hours that begin within the bound after an outage ends', () => {
    // Email down from 16:00 to 22:30 (grace starts at 19:12, inside it), quiet from 23:00 — after the bound of grace's
    // start, within the bound of the outage's end: the reminder's try after the outage may fall in the quiet hours, so 07:00 too.
    const quiet = { start: '23:00', end: '07:00', timeZone: 'UTC' };
    expect(warningsOf(owner({ quietHours: quiet, reminders: [DAY + 7 * HOUR] }), [{ from: 16 * HOUR, to: 22.5 * HOUR }])).toEqual([
      [DAY, 'warned', DAY + 7 * HOUR + LATENESS_BOUND_MS],
    ]);
    // Back at 18:00, before grace and the quiet hours: the bound from grace's start only, as without it.
    expect(warningsOf(owner({ quietHours: lateQuiet, reminders: [] }), [{ from: 16 * HOUR, to: 18 * HOUR }])).toEqual([
      [DAY, 'unwarned', 0.8 * DAY + LATENESS_BOUND_MS],
    ]);
  });

  it('lets a warning wait for an outage only while every way to reach them is down', () => {
    // Email down from 16:00 to 21:00 (grace starts at 19:12, inside it): an email-only owner's reminder is due by 21:00 and the bound.
    const emailDown = { from: 16 * HOUR, to: 21 * HOUR };
    expect(warningsOf(owner({ quietHours: lateQuiet, reminders: [23 * HOUR] }), [emailDown])).toEqual([[DAY, 'warned', 21 * HOUR + LATENESS_BOUND_MS]]);
    // With a verified phone the engine texts them meanwhile: due by grace's start and the bound, as with no outage — 23:00 is too late.
    const withPhone = { ...owner({ quietHours: lateQuiet, reminders: [23 * HOUR] }), phone: '+15550100' };
    expect(warningsOf(withPhone, [emailDown])).toEqual([[DAY, 'unwarned', 0.8 * DAY + LATENESS_BOUND_MS]]);
    // Texts down too, from 18:00 to 20:00: held while both are down, until 20:00.
    expect(warningsOf(withPhone, [emailDown, { from: 18 * HOUR, to: 20 * HOUR, channel: 'sms' }])).toEqual([[DAY, 'warned', 20 * HOUR + LATENESS_BOUND_MS]]);
    // A push device whose service is up: reached by push, as by text.
    const withDevice = { ...owner({ quietHours: lateQuiet, reminders: [23 * HOUR] }), push: 'https://push.example.test/d' };
    expect(warningsOf(withDevice, [emailDown])).toEqual([[DAY, 'unwarned', 0.8 * DAY + LATENESS_BOUND_MS]]);
    expect(warningsOf(withDevice, [emailDown, { from: 17 * HOUR, to: 22 * HOUR, channel: 'push' }])).toEqual([[DAY, 'warned', 21 * HOUR + LATENESS_BOUND_MS]]);
  });

  it('lets a warning held for the end of quiet hours wait for an outage that began in the night too', () => {
    // Quiet from 22:00 to 07:00; email down from 05:00 to 10:00: the reminder held for 07:00 can go at 10:00.
    expect(warningsOf(owner({ reminders: [DAY + 10.25 * HOUR] }), [{ from: DAY + 5 * HOUR, to: DAY + 10 * HOUR }])).toEqual([
      [DAY, 'warned', DAY + 10 * HOUR + LATENESS_BOUND_MS],
    ]);
    // Down only until 06:00, inside the quiet hours: due by 07:00 and the bound, as without it.
    expect(warningsOf(owner({ reminders: [DAY + 10.25 * HOUR] }), [{ from: DAY + 5 * HOUR, to: DAY + 6 * HOUR }])).toEqual([
      [DAY, 'unwarned', DAY + 7 * HOUR + LATENESS_BOUND_MS],
    ]);
  });

  it('does not judge a deadline a check-in came within the bound of, or one the run ends before it is due', () => {
    expect(warningsOf(owner({ checkIns: [DAY + HOUR], reminders: [] })).map(([deadline]) => deadline)).toEqual([2 * DAY + HOUR]);
    expect(judgeWarnings({ seed: 0, start: 0, end: 0.8 * DAY + HOUR, people: [owner()], messages: [], outages: [] })).toEqual([]);
  });

  it('finds the end of quiet hours in the person’s own time zone', () => {
    const q = { start: '22:00', end: '07:00', timeZone: 'Europe/Berlin' }; // UTC+1 in January
    expect(afterQuietHours(Date.UTC(2027, 0, 5, 12, 0), q)).toBe(Date.UTC(2027, 0, 5, 12, 0));
    expect(afterQuietHours(Date.UTC(2027, 0, 5, 21, 30), q)).toBe(Date.UTC(2027, 0, 6, 6, 0));
    expect(afterQuietHours(Date.UTC(2027, 0, 6, 5, 59), q)).toBe(Date.UTC(2027, 0, 6, 6, 0));
  });
});

describe('the oracle, for a vault item given on every birthday', () => {
  // Released on 2100-01-10 at 09:00 UTC: next year's waits from the day after, 2100-01-11 00:00.
  const releasedAt = Date.UTC(2100, 0, 10, 9);
  const nextDay = Date.UTC(2100, 0, 11);
  const yearly = (releasedAt: number | null, nextYears: { deliverAt: number; releasedAt: number | null }[]): BehaviourLog => ({
    seed: 1,
    start: 0,
    end: Date.UTC(2100, 2, 1),
    people: [owner()],
    messages: [{ ...message([{ type: 'recipient_birthday', monthDay: '01-10', windowMs: 0 }]), vault: true, releasedAt, yearly: { nextYears } }],
    outages: [],
  });
  const kinds = (log: BehaviourLog) => judgeYearly(log).map((v) => v.kind);

  it("finds next year's message written once, waiting from the day after the release", () => {
    expect(kinds(yearly(releasedAt, [{ deliverAt: nextDay, releasedAt: null }]))).toEqual(['next year written']);
  });

  it('finds nothing written for a year never released right, and a copy without a release wrong', () => {
    expect(kinds(yearly(null, []))).toEqual(['nothing released, nothing written']);
    expect(kinds(yearly(null, [{ deliverAt: nextDay, releasedAt: null }]))).toEqual(['wrong']);
  });

  it("holds a release with no next year's, or two of them, wrong", () => {
    expect(kinds(yearly(releasedAt, []))).toEqual(['wrong']);
    expect(
      kinds(
        yearly(releasedAt, [
          { deliverAt: nextDay, releasedAt: null },
          { deliverAt: nextDay, releasedAt: null },
        ]),
      ),
    ).toEqual(['wrong']);
  });

  it("holds next year's wrong when it waits from another day, or is released before next year's birthday", () => {
    expect(kinds(yearly(releasedAt, [{ deliverAt: nextDay + DAY, releasedAt: null }]))).toEqual(['wrong']);
    expect(kinds(yearly(releasedAt, [{ deliverAt: nextDay, releasedAt: nextDay + HOUR }]))).toEqual(['wrong']);
  });

  it("follows the chain: next year's released on its birthday wrote the year after", () => {
    const second = Date.UTC(2101, 0, 10, 9);
    expect(
      kinds(
        yearly(releasedAt, [
          { deliverAt: nextDay, releasedAt: second },
          { deliverAt: Date.UTC(2101, 0, 11), releasedAt: null },
        ]),
      ),
    ).toEqual(['next year written']);
  });
});

describe('the oracle, for the heirs of a dead-man deletion', () => {
  const heir = (h: Partial<HeirLog>): HeirLog => ({ person: 1, parts: ['messages', 'vault'], copies: [], told: [], ...h });
  const copy = { parts: ['vault', 'messages'], downloaded: true };
  const run = (erasedAt: number | null, h: HeirLog): BehaviourLog => ({
    seed: 1,
    start: 0,
    end: END,
    people: [{ ...owner({ deadman: { hours: 48, warnings: [], erasedAt } }), heirs: [h] }],
    messages: [],
    outages: [],
  });
  const kinds = (log: BehaviourLog) => judgeHeirs(log).map((v) => v.kind);

  it('finds the heir of an erased account with one copy of their parts, told once after the erasure', () => {
    expect(kinds(run(5 * DAY, heir({ copies: [copy], told: [5 * DAY + 60_000] })))).toEqual(['copy received, told once']);
  });

  it('holds a missing copy, a second one, other parts or one that does not download wrong', () => {
    for (const copies of [[], [copy, copy], [{ ...copy, parts: ['account'] }], [{ ...copy, downloaded: false }]])
      expect(kinds(run(5 * DAY, heir({ copies, told: [5 * DAY] })))).toEqual(['wrong']);
  });

  it('holds an heir told twice, told before the erasure, or never told wrong — unless the run ended within the bound', () => {
    expect(kinds(run(5 * DAY, heir({ copies: [copy], told: [5 * DAY, 5 * DAY + 1] })))).toEqual(['wrong']);
    expect(kinds(run(5 * DAY, heir({ copies: [copy], told: [5 * DAY - 1] })))).toEqual(['wrong']);
    expect(kinds(run(5 * DAY, heir({ copies: [copy] })))).toEqual(['wrong']);
    expect(kinds(run(END - HOUR, heir({ copies: [copy] })))).toEqual(['copy received, told once']);
  });

  it('finds nothing for the heirs of an account that was kept right, and anything wrong', () => {
    expect(kinds(run(null, heir({})))).toEqual(['nothing, the account kept']);
    expect(kinds(run(null, heir({ copies: [copy] })))).toEqual(['wrong']);
    expect(kinds(run(null, heir({ told: [DAY] })))).toEqual(['wrong']);
  });
});

describe('the oracle, for reports while the owner withdrew their guardian consent', () => {
  /** An owner who withdrew it at day 2 (first tried at day 1.9: that answer was lost) and allowed it again at day 5. */
  const withdrawnThenAllowed = (reportAttempts: PersonLog['reportAttempts']): PersonLog => ({
    ...owner(),
    guardianConsentChanges: [
      { at: 2 * DAY, since: 1.9 * DAY, consent: false },
      { at: 5 * DAY, since: 5 * DAY, consent: true },
    ],
    reportAttempts,
  });
  const judged = (p: PersonLog) => judgeGuardianConsent({ seed: 0, start: 0, end: END, people: [p], messages: [], outages: [] });

  it('holds a guardian’s report refused while it is withdrawn right, and one taken before or after it', () => {
    const [v] = judged(
      withdrawnThenAllowed([
        { at: DAY, by: 'guardian', status: 409 },
        { at: 3 * DAY, by: 'guardian', status: 403 },
        { at: 4 * DAY, by: 'second', status: 403 },
        { at: 6 * DAY, by: 'guardian', status: 200 },
      ]),
    );
    expect(v).toMatchObject({ refused: 2, executorTaken: 0, wrong: [] });
  });

  it('holds a guardian’s report taken while it is withdrawn wrong, and one refused for it while it is given', () => {
    expect(judged(withdrawnThenAllowed([{ at: 3 * DAY, by: 'guardian', status: 200 }]))[0]!.wrong).toHaveLength(1);
    expect(judged(withdrawnThenAllowed([{ at: 6 * DAY, by: 'second', status: 403 }]))[0]!.wrong).toHaveLength(1);
  });

  it('lets the executor’s key report while it is withdrawn, and holds a refusal of it wrong', () => {
    expect(judged(withdrawnThenAllowed([{ at: 3 * DAY, by: 'key', status: 202 }]))[0]).toMatchObject({ executorTaken: 1, wrong: [] });
    expect(judged(withdrawnThenAllowed([{ at: 3 * DAY, by: 'key', status: 403 }]))[0]!.wrong).toHaveLength(1);
  });

  it('holds a guardian asked about them while it is withdrawn wrong, unless the question was on its way when it was', () => {
    const asked = (askedAbout: number[]) => judged({ ...withdrawnThenAllowed([]), askedAbout })[0]!;
    expect(asked([DAY, 2 * DAY + HOUR, 6 * DAY])).toMatchObject({ askedWhileWithdrawn: 0, wrong: [] });
    expect(asked([3 * DAY]).wrong).toHaveLength(1);
  });

  it('does not judge a report while a change’s answer was lost: it may have been written either way', () => {
    expect(judged(withdrawnThenAllowed([{ at: 1.95 * DAY, by: 'guardian', status: 200 }]))[0]).toMatchObject({ refused: 0, wrong: [] });
  });

  it('holds a report refused for it wrong when the owner never withdrew it, and judges no one who was never reported', () => {
    expect(judged({ ...owner(), reportAttempts: [{ at: DAY, by: 'guardian', status: 403 }] })[0]!.wrong).toHaveLength(1);
    expect(judged({ ...owner(), reportAttempts: [{ at: DAY, by: 'guardian', status: 200 }] })[0]!.wrong).toEqual([]);
    expect(judged(owner())).toEqual([]);
  });
});
