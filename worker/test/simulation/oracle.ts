import type { BehaviourLog, CanaryLog, HeirLog, MessageLog, PersonLog } from './behaviour-log';
import { DAY, HOUR } from './population';
import type { Outage } from './faults';

/**
 * The oracle: for every message, whether and when it must be released, written from the behaviour log
 * (behaviour-log.ts) and docs/server-rules.md alone — never from worker/src.
 *
 * The rules it applies (docs/server-rules.md "Canaries and check-ins", "Messages, rules and release"):
 * - each canary of the sender has its own cycles: one starts at its creation or a check-in L on it; its deadline
 *   is D = L + I, grace g = I / 5; misses k is due at D + (k − 1)·I; the cycle ends at the next check-in on it;
 * - a miss counts only once a warning reached the owner a grace period earlier: at D when the grace
 *   reminder reached them at least g (less a tolerance of min(60 s, 5 % of g)) before D; otherwise one
 *   grace period after the first warning that reached them at or after D; never while none has;
 * - `missed_checkins(N)` fires when misses N — or any later miss of the cycle — counts on any canary, `fixed_date(F)`
 *   at F; the first firing arms the message with a cancel deadline max(t, deliver_at) + window; a check-in on any
 *   canary before the deadline disarms
 *   (a fixed date that armed is spent; one that passed while armed by another rule fires at the disarming);
 *   at the deadline it is released; no rules: released at deliver_at; a message written while misses stand
 *   arms at once if the current run of misses satisfies a `missed_checkins` rule;
 * - while the sender's messages consent is withdrawn (docs/decisions/data-rights.md) nothing arms and nothing
 *   is released: a miss that counts then is dropped, a check-in still disarms. When they allow messages again,
 *   at A: an armed message whose deadline passed is released at A; a scheduled one arms at A if the current
 *   run of misses satisfies a `missed_checkins` rule, else if a fixed date passed meanwhile (with its full
 *   window, from A); a message with no rules past its deliver_at is released at A;
 * - a recipient who asks to delete their account is erased seven days later (docs/api.md "Deleting your
 *   account"): a message to them not released by then never is (it becomes undeliverable);
 * - a report of the sender's death is open from its first vote; a check-in while it is open refutes it; the vote
 *   that brings it to the quorum (1, or 2 for some) opens a
 *   72-hour veto window (docs/decisions/guardian-ladder.md, the default window); a check-in by the sender in it
 *   refutes the report, else the death is confirmed at its end (or at the end of a guardian's hold placed in it), and `delay_after_death(d)` fires d after that (then like a fixed date: it arms once,
 *   and waits out a pause).
 *
 * The engine is allowed to be late by at most LATENESS_BOUND_MS (the faults of faults.ts: an alarm up to an
 * hour late, a queue hop held back up to 30 minutes on each of the three hops from a miss to a release,
 * the reconciler's period, the step of the simulation). Where that lateness could change the outcome — a
 * check-in or a warning within the bound of an instant the decision hangs on — the verdict is "either
 * way": the release must still be justified by the rules (no false release), but neither its absence nor
 * its time is judged.
 */
export const LATENESS_BOUND_MS = 3 * HOUR;

/** The veto window a death report opens (docs/decisions/guardian-ladder.md: the default 72 hours). */
export const VETO_WINDOW_MS = 72 * HOUR;

/**
 * When reports of the sender's death opened their veto window (docs/decisions/guardian-ladder.md): a report is open
 * from its first vote, a check-in while it is open refutes it (a later vote starts a new one), and the vote that
 * brings it to the quorum opens the window. `ambiguous`: a check-in within the bound of one of its votes, which may
 * have reached the engine on either side of it — so a report it refuted may have stood, and opened its window.
 */
export function vetoWindowsOf(p: PersonLog, bound: number): { at: number; ambiguous: boolean }[] {
  const windows: { at: number; ambiguous: boolean }[] = [];
  let report: number[] = [];
  for (const v of [...p.deathVotes].sort((a, b) => a - b)) {
    const refuting = report.length ? p.checkIns.filter((c) => c >= report[0]! && c < v) : [];
    if (refuting.length) {
      const close = refuting.some((c) => [...report, v].some((r) => Math.abs(c - r) <= bound));
      if (close && report.length + 1 >= p.quorum) {
        windows.push({ at: v, ambiguous: true });
        report = [];
        continue;
      }
      report = [];
    }
    report.push(v);
    if (report.length < p.quorum) continue;
    const ambiguous = p.checkIns.some((c) => report.some((r) => Math.abs(c - r) <= bound));
    windows.push({ at: v, ambiguous });
    report = [];
  }
  return windows;
}

/**
 * When the sender's death is confirmed (null: never in the run): the end of the veto window of the first report
 * no check-in refuted — or, when a guardian's hold placed before then is still in force, the hold's end
 * (docs/decisions/guardian-ladder.md: a window that ends during a hold confirms at the hold's end). A check-in within
 * the bound of a report's opening or its confirmation may land on either side of it for the engine (a check-in
 * reaches D1 a moment after it is accepted; the confirming alarm may be late), so that confirmation goes either way.
 */
export function deathOf(p: PersonLog, bound: number): { at: number | null; ambiguous: boolean } {
  for (const { at: reported, ambiguous } of vetoWindowsOf(p, bound)) {
    const windowEnd = reported + VETO_WINDOW_MS;
    // A hold in force at the window's end: placed before it (in the window, or before the report), not ended by a check-in.
    const held = p.holds.filter((h) => h.at < windowEnd && !p.checkIns.some((c) => c >= h.at && c < reported)).map((h) => h.until);
    const end = Math.max(windowEnd, ...held);
    if (ambiguous || p.checkIns.some((c) => Math.abs(c - reported) <= bound || Math.abs(c - end) <= bound)) return { at: end, ambiguous: true };
    if (p.checkIns.some((c) => c >= reported && c < end)) continue;
    // A hold placed within the bound of the window's end may come after the engine confirmed.
    return { at: end, ambiguous: p.holds.some((h) => Math.abs(h.at - windowEnd) <= bound) };
  }
  return { at: null, ambiguous: false };
}

/**
 * A vault item's birthday condition (docs/decisions/vault.md): the first such day at or after the confirmed death
 * `t`, at 09:00 UTC — at once when the death is confirmed later on the birthday itself; 02-29 is 28 February in
 * other years.
 */
export function birthdayAfter(t: number, monthDay: string): number {
  const [month, day] = monthDay.split('-').map(Number) as [number, number];
  for (let year = new Date(t).getUTCFullYear(); ; year++) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    const dayStart = Date.UTC(year, month - 1, month === 2 && day === 29 && !leap ? 28 : day);
    if (t < dayStart + 24 * HOUR) return Math.max(t, dayStart + 9 * HOUR);
  }
}

/** A yearly birthday item's years after its first release: each written once, by the release before it. */
export interface YearlyVerdict {
  message: MessageLog;
  kind: 'next year written' | 'nothing released, nothing written' | 'wrong';
  reason?: string;
}

/**
 * A yearly birthday item (docs/decisions/vault.md): each release writes exactly one message for the year after —
 * `deliver_at` the day after the release's day, so that its birthday rule waits for the next birthday — and nothing
 * else writes one. Walks the chain from this year's release: every release has exactly one successor, which is not
 * released before its own birthday; an unreleased year is the last. (Whether a later year's release came in time is
 * the message verdicts' question for a run long enough to reach it; runs here are shorter than a year.)
 */
export function judgeYearly(log: BehaviourLog): YearlyVerdict[] {
  return log.messages
    .filter((m) => m.yearly)
    .map((message) => {
      const wrong = (reason: string): YearlyVerdict => ({ message, kind: 'wrong', reason });
      const rule = message.rules[0];
      if (rule?.type !== 'recipient_birthday') return wrong('a yearly item without a birthday rule');
      const years = message.yearly!.nextYears;
      if (message.releasedAt === null)
        return years.length
          ? wrong(`${years.length} next years' messages, and this year's was never released`)
          : { message, kind: 'nothing released, nothing written' };
      let released: number | null = message.releasedAt;
      for (const [i, year] of years.entries()) {
        if (released === null) return wrong(`${years.length - i} more years' messages after one never released`);
        const deliverAt = released - (released % DAY) + DAY;
        if (year.deliverAt !== deliverAt)
          return wrong(
            `year ${i + 2}'s message waits from ${new Date(year.deliverAt).toISOString()}, not the day after the release before it (${new Date(deliverAt).toISOString()})`,
          );
        const birthday = birthdayAfter(deliverAt, rule.monthDay);
        if (year.releasedAt !== null && year.releasedAt < birthday)
          return wrong(`year ${i + 2}'s message released ${new Date(year.releasedAt).toISOString()}, before its birthday ${new Date(birthday).toISOString()}`);
        released = year.releasedAt;
      }
      if (released !== null) return wrong(`no message for the year after the release ${new Date(released).toISOString()}`);
      return { message, kind: 'next year written' };
    });
}

/** An heir of a dead-man deletion: what reached them from its owner. */
export interface HeirVerdict {
  owner: PersonLog;
  heir: HeirLog;
  kind: 'copy received, told once' | 'nothing, the account kept' | 'wrong';
  reason?: string;
}

/**
 * Share, then delete (docs/decisions/legacy-copies.md): when a dead-man's switch erases an account, each heir it names
 * has exactly one copy of the parts chosen for them, whole, and is told of it once, after the erasure (within the
 * bound, unless the run ends first); when the account is kept, no heir sees a copy or hears of one.
 */
export function judgeHeirs(log: BehaviourLog, bound = LATENESS_BOUND_MS): HeirVerdict[] {
  return log.people.flatMap((owner) =>
    owner.heirs.map((heir): HeirVerdict => {
      const wrong = (reason: string): HeirVerdict => ({ owner, heir, kind: 'wrong', reason });
      const erased = owner.deadman?.erasedAt ?? null;
      if (erased === null)
        return heir.copies.length || heir.told.length
          ? wrong(`${heir.copies.length} copies and ${heir.told.length} notices of one from an account that was kept`)
          : { owner, heir, kind: 'nothing, the account kept' };
      if (heir.copies.length !== 1) return wrong(`${heir.copies.length} copies from an erased account, not one`);
      const copy = heir.copies[0]!;
      if ([...copy.parts].sort().join() !== [...heir.parts].sort().join())
        return wrong(`the copy holds ${copy.parts.join(', ')}, not ${heir.parts.join(', ')}`);
      if (!copy.downloaded) return wrong('the copy did not download whole');
      if (heir.told.length > 1) return wrong(`told ${heir.told.length} times`);
      if (heir.told.length === 1 && heir.told[0]! < erased) return wrong('told before the account was erased');
      if (!heir.told.length && erased + bound <= log.end) return wrong('never told of the copy');
      return { owner, heir, kind: 'copy received, told once' };
    }),
  );
}

export interface GuardianConsentVerdict {
  person: PersonLog;
  /** Reports refused while the owner's guardian consent was withdrawn, and executors' reports taken meanwhile. */
  refused: number;
  executorTaken: number;
  /** Questions to their guardians about them ("Have you heard from …?") while it was withdrawn: none may come. */
  askedWhileWithdrawn: number;
  /** What broke the rule (none: the person's reports were answered as it says). */
  wrong: string[];
}

/**
 * The guardian consent (docs/decisions/data-rights.md): while the owner has withdrawn it, a guardian's report of
 * their death is refused (403) and their executor's key still reports; otherwise a guardian's report is not refused
 * for it; and no guardian is asked "Have you heard from …?" about them while it is withdrawn. Judged for every report
 * attempt from the answers logged and the consent changes accepted; an attempt while a change's answer was lost
 * (between its first try and its acceptance) could go either way and is not judged, and a question may still arrive
 * within the bound after the withdrawal (one asked before it, on its way).
 */
export function judgeGuardianConsent(log: BehaviourLog, bound = LATENESS_BOUND_MS): GuardianConsentVerdict[] {
  return log.people
    .filter((p) => p.guardianConsentChanges.length || p.reportAttempts.length)
    .map((person) => {
      const verdict: GuardianConsentVerdict = { person, refused: 0, executorTaken: 0, askedWhileWithdrawn: 0, wrong: [] };
      const changes = person.guardianConsentChanges;
      for (const [i, c] of changes.entries()) {
        if (c.consent) continue;
        const until = changes.slice(i + 1).find((n) => n.consent)?.since ?? Number.POSITIVE_INFINITY;
        for (const at of person.askedAbout.filter((t) => t >= c.at + bound && t < until)) {
          verdict.askedWhileWithdrawn += 1;
          verdict.wrong.push(`a guardian was asked about them at ${new Date(at).toISOString()}, with their guardian consent withdrawn`);
        }
      }
      for (const a of person.reportAttempts) {
        if (person.guardianConsentChanges.some((c) => c.since <= a.at && a.at < c.at)) continue;
        const last = person.guardianConsentChanges.filter((c) => c.at <= a.at).at(-1);
        const withdrawn = last !== undefined && !last.consent;
        const taken = a.status === 200 || a.status === 202;
        if (a.by === 'key') {
          if (withdrawn && taken) verdict.executorTaken += 1;
          if (a.status === 403) verdict.wrong.push(`their executor's report was refused (403) at ${new Date(a.at).toISOString()}`);
        } else if (withdrawn && a.status === 403) verdict.refused += 1;
        else if (withdrawn && taken)
          verdict.wrong.push(`a guardian's report was taken at ${new Date(a.at).toISOString()}, with their guardian consent withdrawn`);
        else if (!withdrawn && a.status === 403)
          verdict.wrong.push(`a guardian's report was refused (403) at ${new Date(a.at).toISOString()}, with their guardian consent given`);
      }
      return verdict;
    });
}

/** How long after the request an account is erased (docs/api.md "Deleting your account"). */
export const ERASED_AFTER_MS = 7 * 24 * HOUR;

/** When the person was erased (null: they stayed): seven days after they asked, or when their dead-man's switch erased them (judged by `judgeDeletion`). */
export const erasedAt = (p: PersonLog) => (p.deletionRequestedAt !== null ? p.deletionRequestedAt + ERASED_AFTER_MS : (p.deadman?.erasedAt ?? null));

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

/** A canary's grace period: the last fifth of its interval. */
const graceOf = (intervalMs: number) => intervalMs / 5;
const toleranceOf = (graceMs: number) => Math.min(60_000, graceMs * 0.05);

interface Cycle {
  start: number;
  /** The next check-in, or Infinity. */
  next: number;
}

/** A canary's cycles: from its creation and from each check-in on it. */
function cyclesOf(p: CanaryLog): Cycle[] {
  const starts = [p.createdAt, ...p.checkIns];
  return starts.map((start, i) => ({ start, next: starts[i + 1] ?? Number.POSITIVE_INFINITY }));
}

/**
 * When misses n of a cycle counts (null: never), and whether the engine's allowed lateness could change that;
 * `nominal` is when it would count, for a doubt about one that does not.
 */
function countOf(p: CanaryLog, c: Cycle, n: number, bound: number): { at: number | null; ambiguous: boolean; nominal: number } {
  const I = p.intervalMs;
  const g = graceOf(I);
  const tol = toleranceOf(g);
  const D = c.start + I;
  const nominal = D + (n - 1) * I;
  // Checked in well before it was even due: it cannot count, whatever the warnings and the lateness.
  if (c.next <= nominal - bound) return { at: null, ambiguous: false, nominal };
  const warnings = p.warnings.filter((w) => w >= D - g && w < c.next);
  const timely = warnings.find((w) => w <= D - g + tol);
  // A reminder that just missed being timely counts when the deadline is recorded late; a reminder delivered
  // just after D may come before the engine records the miss (and then counts for nothing). A re-warning is
  // sent when the miss is recorded, so it can only come after.
  const reminders = warnings.filter((w) => p.reminders.includes(w));
  let ambiguous = reminders.some((w) => (w > D - g + tol && w <= D - g + tol + bound) || (w >= D && w < D + bound));
  const after = warnings.find((w) => w >= D);
  const countsFrom = timely !== undefined ? D : after !== undefined ? after + g : null;
  if (countsFrom === null) return { at: null, ambiguous, nominal };
  const at = Math.max(nominal, countsFrom);
  if (Math.abs(c.next - at) <= bound) ambiguous = true;
  // A check-in at or before the instant it would count ends the cycle first.
  return { at: c.next <= at ? null : at, ambiguous, nominal: at };
}

/** The spans during which the sender's messages consent was withdrawn (`to`: Infinity while it still is). */
export function pausesOf(p: PersonLog): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  let from: number | null = null;
  for (const c of p.consentChanges) {
    if (!c.consent && from === null) from = c.at;
    else if (c.consent && from !== null) {
      out.push({ from, to: c.at });
      from = null;
    }
  }
  if (from !== null) out.push({ from, to: Number.POSITIVE_INFINITY });
  return out;
}

/**
 * How many misses stand at t — the most on any of the sender's canaries, each in its current cycle — and whether
 * the engine's lateness could change that.
 */
function missesAt(p: PersonLog, t: number, bound: number): { misses: number; ambiguous: boolean } {
  let most = 0;
  let ambiguous = false;
  for (const canary of p.canaries) {
    const cycle = cyclesOf(canary).findLast((c) => c.start <= t);
    if (!cycle) continue;
    let misses = 0;
    for (let k = 1; cycle.start + k * canary.intervalMs <= t + bound; k++) {
      const counted = countOf(canary, cycle, k, bound);
      ambiguous ||= counted.ambiguous;
      if (counted.at === null) break;
      if (Math.abs(counted.at - t) <= bound) ambiguous = true;
      if (counted.at > t) break;
      misses = k;
    }
    most = Math.max(most, misses);
  }
  return { misses: most, ambiguous };
}

/** A message with no rules: released at deliver_at, or when messages are allowed again if that falls in a pause. */
function expectedLetter(m: MessageLog, p: PersonLog, bound: number): { at: number | null; ambiguous: boolean } {
  const due = Math.max(m.deliverAt, m.createdAt);
  const pause = pausesOf(p).find((w) => due >= w.from - bound && due < w.to + bound);
  if (!pause) return { at: due, ambiguous: false };
  const ambiguous = Math.abs(due - pause.from) <= bound || Math.abs(due - pause.to) <= bound;
  if (due < pause.from) return { at: due, ambiguous };
  return { at: Number.isFinite(pause.to) ? Math.max(due, pause.to) : null, ambiguous };
}

/**
 * What can happen to a message, in time order. A `fire` in `doubt`, or a `doubt` (a miss that might have counted),
 * is one the engine's allowed lateness could decide differently: the verdict is "either way" if the message was
 * still undecided when it came — not for doubts after its release, which cannot change it.
 */
type Ev =
  | { t: number; kind: 'fire'; rule: number; doubt: boolean }
  | { t: number; kind: 'doubt' }
  | { t: number; kind: 'checkin' }
  | { t: number; kind: 'pause' }
  | { t: number; kind: 'resume' };

/** At one instant: check-ins first (a miss due at a check-in's instant does not count), then consent changes, then rules firing. */
const ORDER: Record<Ev['kind'], number> = { checkin: 0, pause: 1, resume: 1, fire: 2, doubt: 2 };

/** The release instant under the rules with a punctual engine, and whether lateness could change it. */
export function expectedRelease(
  m: MessageLog,
  p: PersonLog,
  end: number,
  bound: number,
): { at: number | null; ambiguous: boolean; why?: string; armings: Arming[] } {
  if (!m.rules.length) {
    // A letter (no rules) is never armed: it goes at its date.
    const letter = { ...expectedLetter(m, p, bound), armings: [] };
    return letter.ambiguous ? { ...letter, why: 'its date is within the bound of a consent change' } : letter;
  }
  let ambiguous = false;
  let why: string | undefined;
  /** The verdict goes "either way"; the first reason is kept for the summary. */
  const doubt = (reason: string) => {
    why ??= reason;
    ambiguous = true;
  };
  const events: Ev[] = [];
  const death = deathOf(p, bound);
  const several = p.canaries.length > 1;
  m.rules.forEach((r, rule) => {
    if (r.type === 'fixed_date') events.push({ t: Math.max(r.at, m.createdAt), kind: 'fire', rule, doubt: false });
    else if (r.type === 'delay_after_death') {
      if (death.at !== null) events.push({ t: Math.max(death.at + r.delayMs, m.createdAt), kind: 'fire', rule, doubt: death.ambiguous });
    } else if (r.type === 'recipient_birthday') {
      if (death.at !== null) events.push({ t: Math.max(birthdayAfter(death.at, r.monthDay), m.createdAt), kind: 'fire', rule, doubt: death.ambiguous });
    } else
      for (const canary of p.canaries)
        for (const c of cyclesOf(canary)) {
          // Misses n fires it; so does every later miss of the cycle (misses ≥ n), which matters only once a check-in on
          // another canary disarmed it (one on this canary ends the cycle), so only for a sender with several.
          for (let k = r.n; k === r.n || (several && c.start + k * canary.intervalMs < Math.min(c.next, end)); k++) {
            const counted = countOf(canary, c, k, bound);
            if (counted.at !== null && counted.at > m.createdAt) events.push({ t: counted.at, kind: 'fire', rule, doubt: counted.ambiguous });
            else if (counted.ambiguous && counted.nominal >= m.createdAt - bound) events.push({ t: counted.nominal, kind: 'doubt' });
            if (counted.at === null) break;
          }
        }
  });
  // Written while misses already stand: a missed_checkins rule the current run of misses satisfies arms at once.
  const standing = missesAt(p, m.createdAt, bound);
  const atCreate = m.rules.findIndex((r) => r.type === 'missed_checkins' && r.n <= standing.misses);
  if (atCreate >= 0) events.push({ t: m.createdAt, kind: 'fire', rule: atCreate, doubt: standing.ambiguous });
  else if (standing.ambiguous && m.rules.some((r) => r.type === 'missed_checkins')) events.push({ t: m.createdAt, kind: 'doubt' });
  for (const t of p.checkIns) if (t > m.createdAt) events.push({ t, kind: 'checkin' });
  for (const w of pausesOf(p)) {
    events.push({ t: w.from, kind: 'pause' });
    if (Number.isFinite(w.to)) events.push({ t: w.to, kind: 'resume' });
  }
  events.sort((a, b) => a.t - b.t || ORDER[a.kind] - ORDER[b.kind]);

  let deadline: number | null = null;
  let paused = false;
  const spent = new Set<number>();
  /** Fixed dates that passed while the message was armed by another rule: they fire at the disarming. */
  const waiting = new Set<number>();
  /** Fixed dates that passed while messages were paused: they arm when messages are allowed again. */
  const pausedFixed = new Set<number>();
  const checkInsNear = (t: number) => p.checkIns.some((c) => c >= t && c <= t + bound);
  /** Each time it was armed, until it was released (its window's end) or disarmed (the check-in's instant). */
  const armings: Arming[] = [];
  const arm = (rule: number, t: number) => {
    const r = m.rules[rule]!;
    deadline = Math.max(t, m.deliverAt) + r.windowMs;
    armings.push({ from: t, until: deadline });
    if (r.type !== 'missed_checkins') spent.add(rule);
    // The engine may arm up to the bound later: a check-in in between decides differently.
    if (checkInsNear(t)) doubt('a check-in within the bound after it armed');
    if (checkInsNear(deadline)) doubt('a check-in within the bound after its cancel deadline');
  };
  // A consent change within the bound of anything the outcome hangs on may land on either side of it.
  const near = (t: number) =>
    events.some((e) => (e.kind === 'fire' || e.kind === 'checkin') && Math.abs(e.t - t) <= bound) ||
    (deadline !== null && Math.abs(deadline - t) <= bound) ||
    Math.abs(m.deliverAt - t) <= bound;
  for (const e of events) {
    if (deadline !== null && deadline <= e.t && !paused) break;
    if (e.kind === 'pause') {
      paused = true;
      if (near(e.t)) doubt('a consent change within the bound of a decision');
      continue;
    }
    if (e.kind === 'resume') {
      paused = false;
      if (near(e.t)) doubt('a consent change within the bound of a decision');
      const resumedFixed = [...pausedFixed].sort((a, b) => a - b);
      pausedFixed.clear();
      if (deadline !== null) {
        // Armed all along: released now if its window ended meanwhile; a fixed date that passed waits for a disarming.
        if (deadline <= e.t) {
          deadline = e.t;
          break;
        }
        for (const rule of resumedFixed) waiting.add(rule);
        continue;
      }
      const current = missesAt(p, e.t, bound);
      if (current.ambiguous) doubt('the misses standing when messages were allowed again');
      const byMiss = m.rules.findIndex((r) => r.type === 'missed_checkins' && r.n <= current.misses);
      if (byMiss >= 0) arm(byMiss, e.t);
      else if (resumedFixed.length) {
        // Two fixed dates that passed meanwhile with different windows: which one arms is the engine's choice.
        if (new Set(resumedFixed.map((rule) => m.rules[rule]!.windowMs)).size > 1) doubt('two fixed dates passed during the pause');
        arm(resumedFixed.shift()!, e.t);
      }
      if (deadline !== null) for (const rule of resumedFixed) waiting.add(rule);
      continue;
    }
    if (e.kind === 'doubt' || (e.kind === 'fire' && e.doubt)) doubt('a miss the lateness could count differently, before the release');
    if (e.kind === 'doubt') continue;
    if (e.kind === 'checkin') {
      if (deadline !== null) {
        armings[armings.length - 1]!.until = e.t;
        deadline = null;
        for (const rule of [...waiting]) {
          waiting.delete(rule);
          if (paused) pausedFixed.add(rule);
          else if (deadline === null) arm(rule, e.t);
          else waiting.add(rule);
        }
      }
      continue;
    }
    const r = m.rules[e.rule]!;
    // A fixed date or a death delay fires once; a miss may fire again in a later cycle.
    const once = r.type !== 'missed_checkins';
    if (once && spent.has(e.rule)) continue;
    if (paused) {
      // Nothing arms while paused: a fixed date or a death delay arms when messages are allowed again, a miss is dropped.
      if (once) (deadline === null ? pausedFixed : waiting).add(e.rule);
      continue;
    }
    if (deadline === null) arm(e.rule, e.t);
    else if (once) waiting.add(e.rule);
  }
  const at = deadline !== null && !paused && deadline <= end ? deadline : null;
  // A doubt shortly after the release could, decided the other way, come before it: a reminder taken as
  // timely counts a miss a grace period earlier than one taken as late.
  const settled = at;
  if (
    settled !== null &&
    events.some(
      (e) =>
        (e.kind === 'doubt' || (e.kind === 'fire' && e.doubt)) &&
        e.t >= settled &&
        e.t <= settled + graceOf(Math.max(...p.canaries.map((c) => c.intervalMs))) + bound,
    )
  )
    doubt('a miss the lateness could count differently, just after the release');
  return { at, ambiguous, ...(why ? { why } : {}), armings };
}

/** A span a message was armed: from its arming until its release or its disarming. */
export interface Arming {
  from: number;
  until: number;
}

/**
 * Until when a dead-man deletion due at `due` waits for the person's releases under way: a message armed then (its
 * conditions met, its cancel window running) and not paused by a withdrawn messages consent is released or disarmed
 * first, since the erasure would take it with it (account/pending-releases.ts). `due` when none is; `ambiguous` when
 * an arming or a pause falls within the bound of the instants that decide it.
 */
export function heldUntil(p: PersonLog, log: BehaviourLog, due: number, bound: number): { at: number; ambiguous: boolean } {
  const pauses = pausesOf(p);
  let at = due;
  let ambiguous = false;
  // A message released after `due` holds it until then: judgeDeletion counts that release itself. Here, those never
  // released — armed past the run's end, disarmed by a check-in, or taken by the erasure.
  for (const m of log.messages.filter((m) => m.sender === p.index && m.rules.length && m.releasedAt === null)) {
    const expected = expectedRelease(m, p, log.end, bound);
    for (const a of expected.armings) {
      if (a.until <= due || a.from > due + bound) continue;
      if (Math.abs(a.from - due) <= bound || expected.ambiguous) ambiguous = true;
      // A pause lets the deletion go ahead while it lasts: held only until the first pause in the arming's span.
      const pausedAt = pauses.find((w) => w.to > due && w.from < a.until);
      if (pausedAt && pausedAt.from <= due) continue;
      if (pausedAt) ambiguous = true;
      at = Math.max(at, Math.min(a.until, pausedAt?.from ?? a.until));
    }
  }
  return { at, ambiguous };
}

/**
 * Whether a release at r is allowed by some rule at all, whatever the engine's lateness (the no-false-release
 * check, applied to every release): null when it is, else why not.
 */
export function unjustified(m: MessageLog, p: PersonLog, r: number, bound: number): string | null {
  if (r < m.deliverAt) return `released before its deliver_at`;
  const pause = pausesOf(p).find((w) => r >= w.from && r < w.to);
  if (pause) return `released while the sender's messages consent was withdrawn (since ${new Date(pause.from).toISOString()})`;
  if (!m.rules.length) return null;
  const why: string[] = [];
  const death = deathOf(p, bound);
  for (const rule of m.rules) {
    if (rule.type === 'fixed_date') {
      if (r >= Math.max(rule.at, m.createdAt) + rule.windowMs) return null;
      why.push('its fixed date and window had not passed');
      continue;
    }
    if (rule.type === 'delay_after_death') {
      if (death.at !== null && r >= death.at + rule.delayMs + rule.windowMs) return null;
      why.push(death.at === null ? 'no death was confirmed' : 'the delay after the death and its window had not passed');
      continue;
    }
    if (rule.type === 'recipient_birthday') {
      if (death.at !== null && r >= birthdayAfter(death.at, rule.monthDay)) return null;
      why.push(death.at === null ? 'no death was confirmed' : 'the first birthday after the death had not come');
      continue;
    }
    for (const canary of p.canaries) {
      const I = canary.intervalMs;
      const g = graceOf(I);
      const tol = toleranceOf(g);
      for (const c of cyclesOf(canary)) {
        const due = c.start + rule.n * I;
        if (c.next <= due || r < Math.max(due, m.deliverAt) + rule.windowMs) continue;
        // A check-in on this canary before the cancel deadline (at most the bound before the release) ends the cycle.
        if (c.next < r - bound) continue;
        const warned = canary.warnings.some((w) => w >= c.start + I - g && w < c.next && w <= r - rule.windowMs - (g - tol));
        if (warned) return null;
        why.push(`misses ${rule.n} of "${canary.name}"'s cycle from ${new Date(c.start).toISOString()} came with no warning a grace period before`);
      }
    }
  }
  return why.length ? why.join('; ') : 'no rule could fire: the sender checked in before any reached its count';
}

export function judge(log: BehaviourLog, bound = LATENESS_BOUND_MS): Verdict[] {
  return log.messages.map((m) => {
    const p = log.people[m.sender]!;
    const expected = senderErased(recipientLeaving(expectedRelease(m, p, log.end, bound), erasedAt(log.people[m.recipient]!), bound), erasedAt(p), bound);
    const base = { message: m, expectedAt: expected.at, ambiguous: expected.ambiguous, latenessMs: null };
    if (m.channelDeliveries > 1) return { ...base, kind: 'duplicated', reason: `${m.channelDeliveries} deliveries on one channel` };
    if (m.releasedAt !== null) {
      const reason = unjustified(m, p, m.releasedAt, bound) ?? afterErasure(m, log.people[m.recipient]!, bound);
      if (reason) return { ...base, kind: 'false release', reason };
      if (expected.ambiguous) return { ...base, kind: 'either way, released', reason: expected.why };
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
    if (expected.ambiguous) return { ...base, kind: 'either way, not released', reason: expected.why };
    if (expected.at !== null && expected.at + bound <= log.end) return { ...base, kind: 'missed', reason: 'due and not released within the bound' };
    return { ...base, kind: 'not due' };
  });
}

/** A message whose recipient is erased before its release never is released; one due within the bound of the erasure may go either way. */
function recipientLeaving(expected: { at: number | null; ambiguous: boolean; why?: string }, erased: number | null, bound: number) {
  if (erased === null || expected.at === null) return expected;
  if (Math.abs(expected.at - erased) <= bound) return { ...expected, ambiguous: true, why: expected.why ?? 'due within the bound of its recipient’s erasure' };
  return expected.at > erased ? { ...expected, at: null } : expected;
}

/** A release after the recipient was erased (the cron erases within the bound of the date): null when it is not one. */
function afterErasure(m: MessageLog, recipient: PersonLog, bound: number): string | null {
  const erased = erasedAt(recipient);
  return erased !== null && m.releasedAt !== null && m.releasedAt > erased + bound
    ? `released after its recipient was erased (${new Date(erased).toISOString()})`
    : null;
}

/**
 * A message whose sender's account was erased before it was due — by their dead-man's switch (which waits only for
 * releases under way) or a week after they asked — is never released: the erasure takes it. One due within the bound
 * of the erasure may go either way.
 */
function senderErased(expected: { at: number | null; ambiguous: boolean; why?: string }, erased: number | null, bound: number) {
  if (erased === null || expected.at === null) return expected;
  if (Math.abs(expected.at - erased) <= bound) return { ...expected, ambiguous: true, why: expected.why ?? 'due within the bound of its sender’s erasure' };
  return expected.at > erased ? { ...expected, at: null } : expected;
}

/** A dead-man deletion's final day: from its warning reaching the owner to the erasure (docs/server-rules.md). */
export const DEADMAN_FINAL_DAY_MS = 24 * HOUR;

export type DeletionVerdictKind =
  | 'erased'
  | 'kept'
  | 'not due'
  | 'false deletion'
  | 'missed deletion'
  | 'late deletion'
  | 'either way, erased'
  | 'either way, kept';

export interface DeletionVerdict {
  person: PersonLog;
  kind: DeletionVerdictKind;
  /** When a punctual engine erases them (null: not within the run). */
  expectedAt: number | null;
  reason?: string;
}

/**
 * The dead-man's switch of one person (docs/server-rules.md "Canaries and check-ins"): with no check-in for its
 * hours after the last one (or after it was set), their account is scheduled for deletion and a warning goes to
 * them; the erasure comes no sooner than a full day after that warning reached them, never while none has, and
 * only once their releases under way are delivered; a check-in before it cancels it.
 * - **false deletion** (exact, whatever the lateness): erased with no warning that reached them at or after the
 *   deadline their last check-in set and a full day before the erasure;
 * - **missed deletion**: due (a day after the warning, or after the last of their releases that came later, or
 *   the end of an email outage then) more than the bound before the end of the run, and still there — or the
 *   switch passed two days before the end and no warning ever reached them;
 * - **late deletion**: erased more than the bound after that;
 * a check-in within the bound of the erasure may land on either side of it: either way.
 */
export function judgeDeletion(p: PersonLog, log: BehaviourLog, bound = LATENESS_BOUND_MS): DeletionVerdict | null {
  const d = p.deadman;
  if (!d) return null;
  const H = d.hours * HOUR;
  const E = d.erasedAt;
  if (E !== null) {
    const last = Math.max(d.setAt, ...p.checkIns.filter((c) => c <= E));
    if (E < last + H)
      return {
        person: p,
        kind: 'false deletion',
        expectedAt: null,
        reason: `erased before the deadline its last check-in set (${new Date(last + H).toISOString()})`,
      };
    if (!d.warnings.some((w) => w >= last + H && w + DEADMAN_FINAL_DAY_MS <= E))
      return { person: p, kind: 'false deletion', expectedAt: null, reason: 'erased with no warning that reached them a full day before' };
  }
  const starts = [d.setAt, ...p.checkIns];
  let due: number | null = null;
  let unwarnedSince: number | null = null;
  let ambiguous = false;
  /** It waited for a release of theirs under way: an erasure before that took the release with it. */
  let waited = false;
  for (let i = 0; i < starts.length; i++) {
    const next = starts[i + 1] ?? Number.POSITIVE_INFINITY;
    const deadline = starts[i]! + H;
    if (deadline > log.end) break; // not passed within the run
    if (next <= deadline) continue;
    const warned = d.warnings.find((w) => w >= deadline && w < next);
    if (warned === undefined) {
      if (Number.isFinite(next)) continue; // they checked in before any warning reached them: cancelled
      unwarnedSince = deadline;
      break;
    }
    // Carried out a full day after the warning reached them, once no release of theirs is under way; a check-in
    // before then cancels it — in its final day, or while it waits.
    const final = warned + DEADMAN_FINAL_DAY_MS;
    const held = heldUntil(p, log, final, bound);
    if (held.ambiguous) ambiguous = true;
    if (next < final - bound || (held.at > final && next <= held.at)) continue;
    if (next <= held.at + bound) ambiguous = true;
    due = held.at;
    waited = held.at > final;
    break;
  }
  if (due !== null) {
    // It waits for their releases under way: judged from the last of theirs that came after, and an outage then.
    const later = log.messages.filter((m) => m.sender === p.index && m.releasedAt !== null && m.releasedAt >= due!).map((m) => m.releasedAt!);
    due = Math.max(due, ...later);
    for (const o of log.outages) if (o.from <= due + bound && o.to >= due) due = Math.max(due, o.to);
  }
  const base = { person: p, expectedAt: due };
  if (E !== null) {
    if (ambiguous) return { ...base, kind: 'either way, erased', reason: 'a check-in within the bound of the erasure' };
    if (waited && due !== null && E < due - bound)
      return { ...base, kind: 'false deletion', reason: `erased while a release of theirs was under way (until ${new Date(due).toISOString()})` };
    if (due !== null && E > due + bound) return { ...base, kind: 'late deletion', reason: `erased ${((E - due) / HOUR).toFixed(1)} h after it was due` };
    return { ...base, kind: 'erased' };
  }
  if (ambiguous) return { ...base, kind: 'either way, kept', reason: 'a check-in within the bound of the erasure' };
  if (due !== null && due + bound <= log.end) return { ...base, kind: 'missed deletion', reason: 'due and not carried out within the bound' };
  if (unwarnedSince !== null && unwarnedSince + 2 * 24 * HOUR <= log.end)
    return { ...base, kind: 'missed deletion', reason: `the switch passed at ${new Date(unwarnedSince).toISOString()} and no warning reached them` };
  return { ...base, kind: due === null && unwarnedSince === null ? 'kept' : 'not due' };
}

export function judgeDeletions(log: BehaviourLog, bound = LATENESS_BOUND_MS): DeletionVerdict[] {
  return log.people.map((p) => judgeDeletion(p, log, bound)).filter((v): v is DeletionVerdict => v !== null);
}

/** Whether a deadline that passed unchecked was followed by a warning that reached its owner. */
export interface WarningVerdict {
  person: PersonLog;
  canary: CanaryLog;
  deadline: number;
  kind: 'warned' | 'unwarned';
  /** When a warning had to have reached them by (grace's start, or the end of quiet hours or an outage then, plus the bound). */
  dueBy: number;
}

/** The first instant at or after `t` outside a person's quiet hours (a warning waits for their end). */
export function afterQuietHours(t: number, q: PersonLog['quietHours']): number {
  const clock = new Intl.DateTimeFormat('en-GB', { timeZone: q.timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const [from, to] = [minuteOf(q.start), minuteOf(q.end)];
  const quiet = (m: number) => (from <= to ? m >= from && m < to : m >= from || m < to);
  let at = t;
  for (let m = minuteOf(clock.format(at)); quiet(m); m = minuteOf(clock.format(at))) {
    // To the quiet hours' end by the clock, then again (a change of the clocks in between moves it).
    at = Math.floor(at / 60_000) * 60_000 + Math.max(1, (to - m + 1440) % 1440) * 60_000;
  }
  return at;
}

/**
 * When a warning the engine should send at `t` has reached its owner at the latest: within the bound, unless
 * the engine's try at some moment of the bound falls in their quiet hours or in a provider's outage — then
 * the bound again after the first moment free of both (quiet hours whose end falls in an outage wait for
 * that one's end too: found by a run at the default size, seed 11, where a reminder held for 07:00 met an
 * email outage that began in the night). The bound so extended is looked at whole, too: quiet hours that begin
 * within the bound after an outage's end hold the warning as they would at its start (found by seed 6 at
 * npm test's size: email back at 21:46, quiet hours from 22:00, the warning's next try at 22:42 held for 07:00).
 * Looked at no further than two days past the bound, so quiet hours that leave less than the bound free each
 * day cannot push it out for ever.
 */
export function reachedBy(t: number, q: PersonLog['quietHours'], bound: number, outages: readonly { from: number; to: number }[] = []): number {
  const free = (at: number) => {
    for (let moved = true; moved; ) {
      const afterQuiet = afterQuietHours(at, q);
      const outage = outages.find((o) => o.from <= afterQuiet && afterQuiet < o.to);
      const next = outage ? outage.to : afterQuiet;
      moved = next !== at;
      at = next;
    }
    return at;
  };
  let due = t + bound;
  for (let s = t; s <= Math.min(due, t + bound + 2 * 86_400_000); s += 5 * 60_000) {
    const end = free(s);
    if (end !== s) due = Math.max(due, end + bound);
  }
  return due;
}

/**
 * When none of a person's ways to be reached works: a warning goes to their chosen methods and, when none takes it,
 * to every other one they have (docs/decisions/canary-engine.md, "Safety notices") — so it is held back only while
 * email, and their phone's texts and their device's push if they have them, are all down at once. Until 2026-11-29
 * any provider's outage held everyone's warnings, which let a warning an email outage delayed pass for someone the
 * engine should have reached by text.
 */
export function unreachableSpans(p: PersonLog, outages: readonly Outage[]): { from: number; to: number }[] {
  const down = (channel: NonNullable<Outage['channel']>) => outages.filter((o) => (o.channel ?? 'email') === channel);
  let spans = down('email').map(({ from, to }) => ({ from, to }));
  for (const channel of [...(p.phone ? (['sms'] as const) : []), ...(p.push ? (['push'] as const) : [])]) {
    spans = spans.flatMap((s) => down(channel).map((o) => ({ from: Math.max(s.from, o.from), to: Math.min(s.to, o.to) }))).filter((s) => s.from < s.to);
  }
  return spans;
}

/**
 * Silence is not a pass: every deadline its owner let pass (no check-in on the canary until more than the
 * bound after it) must bring a warning — the grace reminder before it or the re-warning after — that reached
 * them within the bound of the grace period's start, later only by their quiet hours or an outage of a
 * provider then (it waits for either's end). Without this, an engine that lost a canary's timer and so never
 * warned would count no miss and release nothing, and every message would look correctly unreleased. Not judged: a deadline a death report,
 * an erasure or the run's end comes within reach of (the engine may rightly stop, or the run ends first).
 */
export function judgeWarnings(log: BehaviourLog, bound = LATENESS_BOUND_MS): WarningVerdict[] {
  const out: WarningVerdict[] = [];
  for (const p of log.people) {
    const erased = erasedAt(p);
    const vetoWindows = vetoWindowsOf(p, bound);
    for (const canary of p.canaries) {
      const g = graceOf(canary.intervalMs);
      for (const c of cyclesOf(canary)) {
        const D = c.start + canary.intervalMs;
        if (c.next <= D + bound) continue;
        // The grace reminder is due when grace starts; quiet hours and outages then hold it until their end.
        const dueBy = reachedBy(D - g, p.quietHours, bound, unreachableSpans(p, log.outages));
        if (dueBy > log.end || (erased !== null && erased <= dueBy) || vetoWindows.some((w) => w.at <= dueBy)) continue;
        const warned = canary.warnings.some((w) => w >= D - g && w <= dueBy);
        out.push({ person: p, canary, deadline: D, kind: warned ? 'warned' : 'unwarned', dueBy });
      }
    }
  }
  return out;
}
