import type { BehaviourLog, MessageLog, PersonLog } from './behaviour-log';
import { HOUR } from './population';

/**
 * The oracle: for every message, whether and when it must be released, written from the behaviour log
 * (behaviour-log.ts) and docs/server-rules.md alone — never from worker/src.
 *
 * The rules it applies (docs/server-rules.md "Canaries and check-ins", "Messages, rules and release"):
 * - a cycle starts at the canary's creation or a check-in L; its deadline is D = L + I, grace g = I / 5;
 *   misses k is due at D + (k − 1)·I; the cycle ends at the next check-in;
 * - a miss counts only once a warning reached the owner a grace period earlier: at D when the grace
 *   reminder reached them at least g (less a tolerance of min(60 s, 5 % of g)) before D; otherwise one
 *   grace period after the first warning that reached them at or after D; never while none has;
 * - `missed_checkins(N)` fires when misses N counts, `fixed_date(F)` at F; the first firing arms the
 *   message with a cancel deadline max(t, deliver_at) + window; a check-in before the deadline disarms
 *   (a fixed date that armed is spent; one that passed while armed by another rule fires at the disarming);
 *   at the deadline it is released; no rules: released at deliver_at.
 *
 * The engine is allowed to be late by at most LATENESS_BOUND_MS (the faults of faults.ts: an alarm up to an
 * hour late, a queue hop held back up to 30 minutes on each of the three hops from a miss to a release,
 * the reconciler's period, the step of the simulation). Where that lateness could change the outcome — a
 * check-in or a warning within the bound of an instant the decision hangs on — the verdict is "either
 * way": the release must still be justified by the rules (no false release), but neither its absence nor
 * its time is judged.
 */
export const LATENESS_BOUND_MS = 3 * HOUR;

export type VerdictKind = 'released' | 'not due' | 'false release' | 'missed' | 'late' | 'duplicated' | 'either way, released' | 'either way, not released';

export interface Verdict {
  message: MessageLog;
  kind: VerdictKind;
  /** When the oracle, taking the engine as punctual, releases it (null: never within the run). */
  expectedAt: number | null;
  ambiguous: boolean;
  /** released − expected, for judged releases. */
  latenessMs: number | null;
  reason?: string;
}

const toleranceOf = (graceMs: number) => Math.min(60_000, graceMs * 0.05);

interface Cycle {
  start: number;
  /** The next check-in, or Infinity. */
  next: number;
}

function cyclesOf(p: PersonLog): Cycle[] {
  const starts = [p.createdAt, ...p.checkIns];
  return starts.map((start, i) => ({ start, next: starts[i + 1] ?? Number.POSITIVE_INFINITY }));
}

/** When misses n of a cycle counts (null: never), and whether the engine's allowed lateness could change that. */
function countOf(p: PersonLog, c: Cycle, n: number, bound: number): { at: number | null; ambiguous: boolean } {
  const I = p.intervalMs;
  const g = I / 5;
  const tol = toleranceOf(g);
  const D = c.start + I;
  const warnings = p.warnings.filter((w) => w >= D - g && w < c.next);
  const timely = warnings.find((w) => w <= D - g + tol);
  // A reminder that just missed being timely counts when the deadline is recorded late; a reminder delivered
  // just after D may come before the engine records the miss (and then counts for nothing). A re-warning is
  // sent when the miss is recorded, so it can only come after.
  const reminders = warnings.filter((w) => p.reminders.includes(w));
  let ambiguous = reminders.some((w) => (w > D - g + tol && w <= D - g + tol + bound) || (w >= D && w < D + bound));
  const after = warnings.find((w) => w >= D);
  const countsFrom = timely !== undefined ? D : after !== undefined ? after + g : null;
  if (countsFrom === null) return { at: null, ambiguous };
  const at = Math.max(D + (n - 1) * I, countsFrom);
  if (Math.abs(c.next - at) <= bound) ambiguous = true;
  // A check-in at or before the instant it would count ends the cycle first.
  return { at: c.next <= at ? null : at, ambiguous };
}

type Ev = { t: number; kind: 'fire'; rule: number } | { t: number; kind: 'checkin' };

/** The release instant under the rules with a punctual engine, and whether lateness could change it. */
export function expectedRelease(m: MessageLog, p: PersonLog, end: number, bound: number): { at: number | null; ambiguous: boolean } {
  if (!m.rules.length) return { at: Math.max(m.deliverAt, m.createdAt), ambiguous: false };
  let ambiguous = false;
  const events: Ev[] = [];
  const cycles = cyclesOf(p);
  m.rules.forEach((r, rule) => {
    if (r.type === 'fixed_date') events.push({ t: Math.max(r.at, m.createdAt), kind: 'fire', rule });
    else
      for (const c of cycles) {
        const counted = countOf(p, c, r.n, bound);
        ambiguous ||= counted.ambiguous;
        if (counted.at !== null && counted.at >= m.createdAt) events.push({ t: counted.at, kind: 'fire', rule });
      }
  });
  for (const t of p.checkIns) if (t > m.createdAt) events.push({ t, kind: 'checkin' });
  // Same instant: the check-in first (a miss due at a check-in's instant does not count).
  events.sort((a, b) => a.t - b.t || (a.kind === 'checkin' ? -1 : 1));

  let deadline: number | null = null;
  const spent = new Set<number>();
  const waiting = new Set<number>();
  const checkInsNear = (t: number) => p.checkIns.some((c) => c >= t && c <= t + bound);
  const arm = (rule: number, t: number) => {
    const r = m.rules[rule]!;
    deadline = Math.max(t, m.deliverAt) + r.windowMs;
    if (r.type === 'fixed_date') spent.add(rule);
    // The engine may arm up to the bound later: a check-in in between decides differently.
    if (checkInsNear(t) || checkInsNear(deadline)) ambiguous = true;
  };
  for (const e of events) {
    if (deadline !== null && deadline <= e.t) break;
    if (e.kind === 'checkin') {
      if (deadline !== null) {
        deadline = null;
        for (const rule of [...waiting]) {
          waiting.delete(rule);
          if (deadline === null) arm(rule, e.t);
          else waiting.add(rule);
        }
      }
      continue;
    }
    const r = m.rules[e.rule]!;
    if (r.type === 'fixed_date' && spent.has(e.rule)) continue;
    if (deadline === null) arm(e.rule, e.t);
    else if (r.type === 'fixed_date') waiting.add(e.rule);
  }
  const at = deadline !== null && deadline <= end ? deadline : null;
  return { at, ambiguous };
}

/**
 * Whether a release at r is allowed by some rule at all, whatever the engine's lateness (the no-false-release
 * check, applied to every release): null when it is, else why not.
 */
export function unjustified(m: MessageLog, p: PersonLog, r: number, bound: number): string | null {
  if (r < m.deliverAt) return `released before its deliver_at`;
  if (!m.rules.length) return null;
  const I = p.intervalMs;
  const g = I / 5;
  const tol = toleranceOf(g);
  const why: string[] = [];
  for (const rule of m.rules) {
    if (rule.type === 'fixed_date') {
      if (r >= Math.max(rule.at, m.createdAt) + rule.windowMs) return null;
      why.push('its fixed date and window had not passed');
      continue;
    }
    for (const c of cyclesOf(p)) {
      const due = c.start + rule.n * I;
      if (c.next <= due || r < Math.max(due, m.deliverAt) + rule.windowMs) continue;
      // A check-in before the cancel deadline (at most the bound before the release) disarms.
      if (c.next < r - bound) continue;
      const warned = p.warnings.some((w) => w >= c.start + I - g && w < c.next && w <= r - rule.windowMs - (g - tol));
      if (warned) return null;
      why.push(`misses ${rule.n} of the cycle from ${new Date(c.start).toISOString()} came with no warning a grace period before`);
    }
  }
  return why.length ? why.join('; ') : 'no rule could fire: the sender checked in before any reached its count';
}

export function judge(log: BehaviourLog, bound = LATENESS_BOUND_MS): Verdict[] {
  return log.messages.map((m) => {
    const p = log.people[m.sender]!;
    const expected = expectedRelease(m, p, log.end, bound);
    const base = { message: m, expectedAt: expected.at, ambiguous: expected.ambiguous, latenessMs: null };
    if (m.channelDeliveries > 1) return { ...base, kind: 'duplicated', reason: `${m.channelDeliveries} deliveries on one channel` };
    if (m.releasedAt !== null) {
      const reason = unjustified(m, p, m.releasedAt, bound);
      if (reason) return { ...base, kind: 'false release', reason };
      if (expected.ambiguous) return { ...base, kind: 'either way, released' };
      if (expected.at === null || m.releasedAt < expected.at)
        return {
          ...base,
          kind: 'false release',
          reason: expected.at === null ? 'the rules release it later than the run, or never' : 'released before its time',
        };
      const latenessMs = m.releasedAt - expected.at;
      return {
        ...base,
        latenessMs,
        kind: latenessMs > bound ? 'late' : 'released',
        ...(latenessMs > bound ? { reason: `released ${latenessMs} ms after its time` } : {}),
      };
    }
    if (expected.ambiguous) return { ...base, kind: 'either way, not released' };
    if (expected.at !== null && expected.at + bound <= log.end) return { ...base, kind: 'missed', reason: 'due and not released within the bound' };
    return { ...base, kind: 'not due' };
  });
}
