/**
 * A small reference model of the canary timers, written from docs/server-rules.md "Canaries and check-ins" —
 * deliberately not from worker/src. The model-based test (canary-model.test.ts) feeds it the same
 * steps as the engine and compares.
 *
 * Rules:
 * - a cycle starts at the last check-in, or at the end of a vacation pause if that is later
 *   (docs/decisions/calendar-schedules.md); a pause is refused once the deadline has passed, and resuming
 *   ends it at once.
 * - deadline D = cycle start + interval I; grace g = 20 % of I; tolerance = min(60 s, 5 % of g). A calendar
 *   canary instead has its stated grace g and D = the first scheduled instant after cycle start + g, and
 *   its misses k fall on the scheduled instants from D on.
 * - The grace reminder is recorded by the first timer run in [D − g, D) and sent to the owner's channels;
 *   it is delivered when a channel accepts it (the test decides when: at once, late, or never).
 * - misses k is due at D + (k − 1)·I; a timer run at t ≥ D records every misses k already due — at most
 *   MISSES_PER_RUN of them not yet recorded, the lowest first (docs/decisions/canary-engine.md, "A long
 *   backlog is recorded in bounded runs"); a run that leaves due misses unrecorded asks for the next run
 *   at once (t + 1).
 * - The first miss of a cycle is recorded by the first timer run at t1 ≥ D. If t1 − D > g (our timer was
 *   late) or the reminder was not delivered at least g − tolerance before t1, the owner is re-warned and
 *   nothing of that cycle counts until one grace period after a warning of the cycle (the reminder or the
 *   re-warning) is delivered at or after t1 — never, while none is.
 * - The promise, checked on every emission: some warning of the cycle was delivered at least
 *   g − tolerance before it.
 * - A `missed_checkins` event for (canary, cycle, misses k) is emitted at most once ever, never before its
 *   due time, only while its cycle is current (a check-in ends the cycle) and never for a deleted canary.
 * - A timer run catches up: when it returns, every misses k of the current cycle that it or an earlier run
 *   recorded, that is due and counts, has been emitted; and a backlog it left has its next run at once.
 */

import type { TCanarySchedule } from '../../src/contracts/canary-schedule';
import { DAY, oracleOccurrences } from './calendar-oracle';

export const graceOf = (intervalMs: number) => intervalMs / 5;

/** Missed intervals one timer run records at most (docs/decisions/canary-engine.md); the next run follows at once. */
export const MISSES_PER_RUN = 500;

/**
 * A calendar canary's scheduled instants, read by the Intl oracle (helpers/calendar-oracle.ts), not by the
 * product's Temporal code, and kept as they are read so a long outage costs one pass.
 */
export class Occurrences {
  private readonly list: number[] = [];
  private until: number;

  constructor(
    readonly schedule: TCanarySchedule,
    from: number,
  ) {
    this.until = from - 1;
  }

  private cover(t: number) {
    while (this.until < t) {
      const next = this.until + 60 * DAY;
      for (const at of oracleOccurrences(this.schedule, this.until + 1, next)) if (at > (this.list.at(-1) ?? -Infinity)) this.list.push(at);
      this.until = next;
    }
  }

  /** The index of the first instant at or after `t` (binary search). */
  private indexFrom(t: number): number {
    let lo = 0;
    let hi = this.list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.list[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first scheduled instant after `t`. */
  after(t: number): number {
    return this.nth(t + 1, 1);
  }

  /** The `n`-th scheduled instant at or after `from` (n = 1: the first). */
  nth(from: number, n: number): number {
    this.cover(from + 70 * DAY);
    for (;;) {
      const at = this.list[this.indexFrom(from) + n - 1];
      if (at !== undefined) return at;
      this.cover(this.until + 365 * DAY);
    }
  }

  /** How many scheduled instants lie in [from, t]. */
  countBetween(from: number, t: number): number {
    this.cover(t);
    return this.indexFrom(t + 1) - this.indexFrom(from);
  }
}
export const toleranceOf = (graceMs: number) => Math.min(60_000, graceMs * 0.05);

export interface ModelCycle {
  deadline: number;
  /** When the grace reminder was recorded (null: not yet). */
  reminderAt: number | null;
  /** When a channel accepted the reminder (null: not yet). */
  reminderDeliveredAt: number | null;
  /** When a channel accepted the re-warning (null: not yet, or none). */
  rewarnDeliveredAt: number | null;
  /** When the first miss was recorded (null: not yet). */
  firstMissAt: number | null;
  /** From when the misses of this cycle count: t1 when warned in time, else one grace period after a warning reached the owner (null: none has). */
  countsFrom: number | null;
  rewarned: boolean;
  /** Highest misses recorded so far. */
  maxRecorded: number;
  /** misses k → fake time it was emitted. */
  emitted: Map<number, number>;
  /** When the engine recorded that the cycle's pause ends within a day (null: not yet, or no pause). */
  pauseNoticeAt: number | null;
}

export interface ModelCanary {
  id: string;
  token: string;
  intervalMs: number;
  graceMs: number;
  toleranceMs: number;
  lastCheckIn: number;
  deleted: boolean;
  cycles: Map<number, ModelCycle>;
  /** A calendar canary's scheduled instants (null: an interval canary). */
  calendar: Occurrences | null;
  pausedUntil: number | null;
}

export class CanaryModel {
  readonly canaries = new Map<string, ModelCanary>();
  readonly violations: string[] = [];

  constructor(readonly base: number) {}

  /** A time relative to the run's start, for readable messages. */
  rel(t: number) {
    return `T+${((t - this.base) / 1000).toFixed(3)}s`;
  }

  add(id: string, token: string, intervalSeconds: number, createdAt: number, schedule: TCanarySchedule | null = null) {
    const intervalMs = intervalSeconds * 1000;
    const graceMs = schedule ? schedule.grace_seconds * 1000 : graceOf(intervalMs);
    this.canaries.set(id, {
      id,
      token,
      intervalMs,
      graceMs,
      toleranceMs: toleranceOf(graceMs),
      lastCheckIn: createdAt,
      deleted: false,
      cycles: new Map(),
      calendar: schedule ? new Occurrences(schedule, createdAt - DAY) : null,
      pausedUntil: null,
    });
  }

  /** The owner pauses `c` until `until` at `at`: refused (false) once its deadline has passed. */
  pause(c: ModelCanary, until: number, at: number): boolean {
    if (c.deleted || at >= this.deadlineOf(c)) return false;
    c.pausedUntil = until;
    return true;
  }

  /** The owner ends a pause at `at`: refused (false) when `c` is not paused. */
  resume(c: ModelCanary, at: number): boolean {
    if (c.deleted || c.pausedUntil === null || c.pausedUntil <= at) return false;
    c.pausedUntil = at;
    return true;
  }

  live() {
    return [...this.canaries.values()].filter((c) => !c.deleted);
  }

  deadlineOf(c: ModelCanary) {
    const start = Math.max(c.lastCheckIn, c.pausedUntil ?? -Infinity);
    return c.calendar ? c.calendar.after(start + c.graceMs) : start + c.intervalMs;
  }

  cycle(c: ModelCanary, deadline = this.deadlineOf(c)): ModelCycle {
    let cy = c.cycles.get(deadline);
    if (!cy) {
      cy = {
        deadline,
        reminderAt: null,
        reminderDeliveredAt: null,
        rewarnDeliveredAt: null,
        firstMissAt: null,
        countsFrom: null,
        rewarned: false,
        maxRecorded: 0,
        emitted: new Map(),
        pauseNoticeAt: null,
      };
      c.cycles.set(deadline, cy);
    }
    return cy;
  }

  checkIn(c: ModelCanary, at: number) {
    if (!c.deleted) c.lastCheckIn = at;
  }

  delete(c: ModelCanary) {
    c.deleted = true;
  }

  dueOf(c: ModelCanary, deadline: number, misses: number) {
    return c.calendar ? c.calendar.nth(deadline, misses) : deadline + (misses - 1) * c.intervalMs;
  }

  /** Whole intervals (scheduled instants) elapsed since the deadline, plus one (0 before it). */
  missesAt(c: ModelCanary, t: number) {
    const d = this.deadlineOf(c);
    if (t < d) return 0;
    return c.calendar ? c.calendar.countBetween(d, t) : Math.floor((t - d) / c.intervalMs) + 1;
  }

  /** The timer (alarm or reconciler) ran for `c` at `t`: what gets recorded. */
  timerRun(c: ModelCanary, t: number) {
    if (c.deleted) return;
    const cy = this.cycle(c);
    const d = cy.deadline;
    // A pause ends within a day: the owner is told once per cycle (that is, per pause).
    if (c.pausedUntil !== null && t >= c.pausedUntil - DAY && t < c.pausedUntil && cy.pauseNoticeAt === null) cy.pauseNoticeAt = t;
    if (t >= d - c.graceMs && t < d && cy.reminderAt === null) cy.reminderAt = t;
    if (t >= d) {
      if (cy.firstMissAt === null) {
        cy.firstMissAt = t;
        const late = t - d > c.graceMs;
        const warned = cy.reminderDeliveredAt !== null && t - cy.reminderDeliveredAt >= c.graceMs - c.toleranceMs;
        cy.rewarned = late || !warned;
        // Misses count from when they are recorded (never before due), or a grace period after a warning reaches the owner.
        cy.countsFrom = cy.rewarned ? null : t;
      }
      // A long backlog in bounded runs: this run records the next MISSES_PER_RUN at most.
      cy.maxRecorded = Math.max(cy.maxRecorded, Math.min(this.missesAt(c, t), cy.maxRecorded + MISSES_PER_RUN));
    }
  }

  /** A warning of `c`'s current cycle reached the owner at `at` (the engine ignores those of ended cycles). */
  deliver(c: ModelCanary, kind: 'grace_reminder' | 'late_rewarn', deadline: number, at: number) {
    if (c.deleted || deadline !== this.deadlineOf(c)) return;
    const cy = this.cycle(c);
    if (kind === 'grace_reminder') cy.reminderDeliveredAt ??= at;
    else cy.rewarnDeliveredAt ??= at;
    if (cy.rewarned && cy.countsFrom === null && cy.firstMissAt !== null && at >= cy.firstMissAt) cy.countsFrom = at + c.graceMs;
  }

  /** The misses of the current cycle that must have been emitted once a timer run at `t` returned. */
  expectedEmitted(c: ModelCanary, t: number): number[] {
    const cy = this.cycle(c);
    if (c.deleted || cy.countsFrom === null || t < cy.countsFrom) return [];
    const out: number[] = [];
    for (let k = 1; k <= cy.maxRecorded; k++) if (this.dueOf(c, cy.deadline, k) <= t) out.push(k);
    return out;
  }

  emittedNow(c: ModelCanary): number[] {
    return [...this.cycle(c).emitted.keys()].sort((a, b) => a - b);
  }

  /** The earliest instant after `t` at which something of `c` is due (the timer must wake by then). */
  nextDue(c: ModelCanary, t: number): number {
    const cy = this.cycle(c);
    const d = cy.deadline;
    // Misses due and not yet recorded (a run recorded MISSES_PER_RUN of a longer backlog): the next run at once.
    const missed = this.missesAt(c, t);
    if (cy.maxRecorded < missed) return t + 1;
    // The reminder, the deadline, the next misses, and the end of a fresh grace period.
    const candidates = [d - c.graceMs, d, c.calendar ? c.calendar.after(Math.max(t, d - 1)) : d + missed * c.intervalMs];
    if (cy.countsFrom !== null) candidates.push(cy.countsFrom);
    return Math.min(...candidates.filter((x) => x > t));
  }

  /** An event left the engine at fake time `at`: check every safety rule, then remember it. */
  observeEmission(ev: { canary_id: string; misses: number; deadline: string }, at: number) {
    const c = this.canaries.get(ev.canary_id);
    const where = `misses ${ev.misses} of canary ${ev.canary_id.slice(0, 8)} (cycle ${ev.deadline}) emitted at ${this.rel(at)}`;
    if (!c) return void this.violations.push(`${where}: not a canary of this run`);
    if (c.deleted) this.violations.push(`${where}: the canary was deleted`);
    const deadline = Date.parse(ev.deadline);
    if (deadline !== this.deadlineOf(c))
      this.violations.push(`${where}: that cycle was ended by a check-in (current deadline ${this.rel(this.deadlineOf(c))})`);
    const cy = this.cycle(c, deadline);
    const due = this.dueOf(c, deadline, ev.misses);
    if (!Number.isInteger(ev.misses) || ev.misses < 1) this.violations.push(`${where}: misses must be a positive integer`);
    if (at < due) this.violations.push(`${where}: before its due time ${this.rel(due)}`);
    const before = cy.emitted.get(ev.misses);
    if (before !== undefined) this.violations.push(`${where}: already emitted at ${this.rel(before)}`);
    if (cy.firstMissAt === null) this.violations.push(`${where}: no timer run recorded a miss in this cycle`);
    else if (cy.rewarned && (cy.countsFrom === null || at < cy.countsFrom)) {
      this.violations.push(
        `${where}: re-warned at ${this.rel(cy.firstMissAt)}, and ${cy.countsFrom === null ? 'no warning reached the owner since' : `the fresh grace period ends at ${this.rel(cy.countsFrom)}`}`,
      );
    }
    // The promise itself: a warning reached the owner on a channel at least one grace period (less the tolerance) before.
    const reached = [cy.reminderDeliveredAt, cy.rewarnDeliveredAt].filter((w): w is number => w !== null && at - w >= c.graceMs - c.toleranceMs);
    if (!reached.length) {
      this.violations.push(
        `${where}: no warning reached the owner a grace period before (reminder ${cy.reminderDeliveredAt === null ? 'never delivered' : `delivered at ${this.rel(cy.reminderDeliveredAt)}`}, re-warning ${cy.rewarnDeliveredAt === null ? 'never delivered' : `delivered at ${this.rel(cy.rewarnDeliveredAt)}`})`,
      );
    }
    if (before === undefined) cy.emitted.set(ev.misses, at);
  }

  /** The transitions the engine should have recorded for `c`, in a comparable shape. */
  expectedTransitions(c: ModelCanary) {
    const rows: { cycle: number; kind: string; misses: number; fired_at?: number; delivered?: boolean; counts_from?: number; emitted?: boolean }[] = [];
    for (const cy of c.cycles.values()) {
      if (cy.reminderAt !== null)
        rows.push({ cycle: cy.deadline, kind: 'grace_reminder', misses: 0, fired_at: cy.reminderAt, delivered: cy.reminderDeliveredAt !== null });
      if (cy.pauseNoticeAt !== null) rows.push({ cycle: cy.deadline, kind: 'pause_ending', misses: 0, fired_at: cy.pauseNoticeAt, delivered: false });
      if (cy.rewarned) rows.push({ cycle: cy.deadline, kind: 'late_rewarn', misses: 0, fired_at: cy.firstMissAt!, delivered: cy.rewarnDeliveredAt !== null });
      for (let k = 1; k <= cy.maxRecorded; k++) {
        const due = this.dueOf(c, cy.deadline, k);
        rows.push({
          cycle: cy.deadline,
          kind: 'missed',
          misses: k,
          ...(cy.countsFrom === null ? {} : { counts_from: Math.max(due, cy.countsFrom) }),
          emitted: cy.emitted.has(k),
        });
      }
    }
    return rows.sort(byKey);
  }
}

export const byKey = (a: { cycle: number; kind: string; misses: number }, b: { cycle: number; kind: string; misses: number }) =>
  a.cycle - b.cycle || a.kind.localeCompare(b.kind) || a.misses - b.misses;
