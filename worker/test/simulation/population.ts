import { LEGACY_PARTS } from '@afterword/db/enums';
import type { TLegacyPart } from '../../src/contracts/legacy';
import type { Random } from './random';

/**
 * The people of a simulation, drawn from a seed before anything runs: what each one intends to do, in ms
 * after the start. The engine never sees these plans; it sees the requests they turn into, and the
 * oracle (oracle.ts) reads what actually happened from the behaviour log (behaviour-log.ts).
 */
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export type RulePlan =
  | { type: 'missed_checkins'; n: number; windowDays: number }
  | { type: 'fixed_date'; atMs: number; windowDays: number }
  | { type: 'delay_after_death'; days: number; windowDays: number };

export interface MessagePlan {
  recipient: number;
  /**
   * How it reaches the recipient besides their inbox (default email; sms or a call only to someone with a verified
   * phone, push only to someone with a device).
   */
  method?: 'email' | 'sms' | 'call' | 'push';
  /** When they write it, after the start (absent: before the run, on day 0). */
  writtenAtMs?: number;
  /** deliver_at, after the start (0: at creation). */
  deliverAtMs: number;
  rules: RulePlan[];
}

export interface Absence {
  from: number;
  to: number;
  kind: 'vacation' | 'lapse';
}

/** A change of the sender's messages consent (POST /api/legal/consent/messages), in ms after the start. */
export interface ConsentChange {
  at: number;
  consent: boolean;
}

export interface PersonPlan {
  index: number;
  intervalMs: number;
  /** How they check in: a token ping (a cron job, a bookmark) or the signed-in Heartbeat. */
  via: 'token' | 'heartbeat';
  /** When they mean to check in, in order; they try again each step until one is accepted. */
  checkIns: number[];
  absences: Absence[];
  /** They die: no check-in from then on. */
  diesAt: number | null;
  messages: MessagePlan[];
  /** They withdraw their messages consent, and mostly allow it again some days later (none after they die). */
  consent: ConsentChange[];
  /** They withdraw their guardian consent before their death is reported, and some allow it again (drawGuardianConsents). */
  guardianConsent: ConsentChange[];
  /** They ask to delete their account (and stop checking in): one in three who wrote nothing, one in ten who did. */
  leavesAt: number | null;
  /** Another person of the run guards them and reports their death from `reportFrom` (retrying until `reportUntil`). */
  guardian: GuardianPlan | null;
  /** They pay for Pro through checkout (the others are given it) and may cancel it during the run. */
  subscription: { cancelsAt: number | null } | null;
  /** They set a dead-man's switch of this many hours at the start (null: none). */
  deadmanHours: number | null;
  /** A file they give another person of the run from the vault at the start, and its condition (null: none). */
  vault: VaultPlan | null;
  /**
   * Their canaries besides the first, by name (none: one canary): a "backup" with the other interval, and for some a
   * third. Each has its own check-ins for token people, who ping each canary's token on its own; none for Heartbeat
   * people, whose check-in is on every canary at once.
   */
  more: { name: string; intervalMs: number; checkIns: number[] }[];
  /** They verify a phone and choose text messages beside email for their notices (and can be written to by sms). */
  phone: boolean;
  /** The people they leave a copy of chosen parts of their account before their dead-man's switch erases it (none: nobody). */
  heirs: HeirPlan[];
  /** They register a device for push notifications and choose push beside their other methods, or alone (null: no device). */
  push: 'beside' | 'alone' | null;
}

/** An heir of a dead-man deletion (docs/decisions/legacy-copies.md): another person of the run, and the parts left to them. */
export interface HeirPlan {
  person: number;
  parts: TLegacyPart[];
}

/** A vault item (docs/decisions/vault.md): an exact date (as a date or a date-time), the death flag, or the recipient's birthday. */
export interface VaultPlan {
  recipient: number;
  condition:
    | { type: 'exact_date'; atMs: number; dateOnly: boolean }
    | { type: 'death_flag' }
    /** The month-day of the run's day `dayMs` after the start; `everyYear`: given again on every birthday after. */
    | { type: 'recipient_birthday'; dayMs: number; everyYear: boolean };
}

/** A guardian and the death report they make: after a real death, or during a lapse (a report the owner refutes by checking in). */
export interface GuardianPlan {
  /**
   * `guardian`: another person of the run, invited and accepted, reports after a missed check-in (refused
   * until one). `key`: the owner's executor reports with the owner's own `webhook:death-verification` API
   * key, which needs no miss: the veto window opens at once.
   */
  via: 'guardian' | 'key';
  by: number;
  reportFrom: number;
  reportUntil: number;
  /** The report is false: the owner is alive, in a lapse. */
  falseReport: boolean;
  /**
   * A second guardian (null: none): the owner then sets the quorum to 2, so both must report before the veto window
   * opens; the second reports from `reportFrom` until `reportUntil`, and may then put the confirmation on hold for
   * `holdDays`.
   */
  second: { by: number; reportFrom: number; reportUntil: number; holdDays: number | null } | null;
}

export interface PopulationShape {
  people: number;
  days: number;
}

function drawRule(r: Random, horizon: number): RulePlan {
  const windowDays = r.pick([0, 0, 0, 1, 2]);
  return r.chance(0.7)
    ? { type: 'missed_checkins', n: r.pick([1, 1, 2, 3]), windowDays }
    : { type: 'fixed_date', atMs: Math.round(r.between(0.5 * DAY, horizon)), windowDays };
}

function drawMessages(r: Random, index: number, people: number, horizon: number): MessagePlan[] {
  if (people < 2) return [];
  const count = r.pick([0, 1, 1, 1, 2, 2, 3]);
  const out: MessagePlan[] = [];
  for (let i = 0; i < count; i++) {
    let recipient = r.int(0, people - 2);
    if (recipient >= index) recipient++;
    const kind = r.next();
    const rules = kind < 0.2 ? [] : kind < 0.85 ? [drawRule(r, horizon)] : [drawRule(r, horizon), drawRule(r, horizon)];
    // A letter without rules waits for its date; with rules, deliver_at is mostly "now", sometimes a floor.
    const deliverAtMs = !rules.length || r.chance(0.25) ? Math.round(r.between(0, horizon)) : 0;
    out.push({ recipient, deliverAtMs, rules });
  }
  return out;
}

/**
 * One person in seven withdraws their messages consent for a while: from 1 % to 80 % into the run, and four in
 * five of them allow it again half a day to ten days later. Drawn after everything else of the person, so the
 * rest of a seed's population is what it was before consents were simulated.
 */
function drawConsent(p: Random, horizon: number, diesAt: number | null): ConsentChange[] {
  if (!p.chance(1 / 7)) return [];
  const withdraw = Math.round(p.between(0.01, 0.8) * horizon);
  const restore = p.chance(0.8) ? withdraw + Math.round(p.between(0.5, 10) * DAY) : null;
  const alive = (t: number) => diesAt === null || t < diesAt;
  if (!alive(withdraw)) return [];
  return restore !== null && alive(restore)
    ? [
        { at: withdraw, consent: false },
        { at: restore, consent: true },
      ]
    : [{ at: withdraw, consent: false }];
}

/** One in three of those who wrote nothing ask to delete their account, between 5 % and 60 % into the run. */
function drawLeaving(p: Random, horizon: number, diesAt: number | null, wrote: boolean): number | null {
  if (wrote || !p.chance(1 / 3)) return null;
  const at = Math.round(p.between(0.05, 0.6) * horizon);
  return diesAt === null || at < diesAt ? at : null;
}

/** When someone means to check in on a canary of this interval, away and dead aside. */
function drawCheckIns(p: Random, intervalMs: number, lateness: number, absences: Absence[], diesAt: number | null, horizon: number): number[] {
  const checkIns: number[] = [];
  let t = 0;
  for (;;) {
    // Usually well before grace starts (80 % of the interval); sometimes late: in grace or past the deadline.
    t += intervalMs * (p.chance(lateness) ? p.between(0.8, 1.5) : p.between(0.3, 0.75));
    const away = absences.find((a) => t >= a.from && t < a.to);
    if (away) t = away.to + p.between(0, 0.2) * intervalMs;
    if (t >= horizon || (diesAt !== null && t >= diesAt)) break;
    checkIns.push(Math.round(t));
  }
  return checkIns;
}

/** Daily and weekly people, their late check-ins, vacations, lapses that recover, deaths, consents withdrawn, and people who leave. */
export function drawPopulation(r: Random, shape: PopulationShape): PersonPlan[] {
  const horizon = shape.days * DAY;
  const people: PersonPlan[] = [];
  for (let index = 0; index < shape.people; index++) {
    const p = r.fork();
    const intervalMs = p.chance(0.6) ? DAY : 7 * DAY;
    const absences: Absence[] = [];
    if (p.chance(0.35)) {
      const from = p.between(0, horizon);
      const length = intervalMs === DAY ? p.between(3, 14) * DAY : p.between(14, 35) * DAY;
      absences.push({ from, to: from + length, kind: 'vacation' });
    }
    if (p.chance(0.3)) {
      const from = p.between(0, horizon);
      absences.push({ from, to: from + p.between(1, 2.5) * intervalMs, kind: 'lapse' });
    }
    const diesAt = p.chance(0.06) ? Math.round(p.between(0.1, 0.9) * horizon) : null;
    const lateness = p.pick([0.02, 0.05, 0.1, 0.2]);
    const checkIns = drawCheckIns(p, intervalMs, lateness, absences, diesAt, horizon);
    const via = p.chance(0.7) ? 'token' : 'heartbeat';
    const messages = drawMessages(p, index, shape.people, horizon);
    const consent = drawConsent(p, horizon, diesAt);
    const leavesAt = drawLeaving(p, horizon, diesAt, messages.length > 0);
    people.push({
      index,
      intervalMs,
      via,
      checkIns,
      absences,
      diesAt,
      messages,
      consent,
      guardianConsent: [],
      leavesAt,
      guardian: null,
      subscription: null,
      deadmanHours: null,
      vault: null,
      more: [],
      phone: false,
      push: null,
      heirs: [],
    });
  }
  drawGuardians(r.fork(), people, horizon);
  drawWritingTimes(r.fork(), people, horizon);
  drawSubscriptions(r.fork(), people, horizon);
  drawDeadmanSwitches(r.fork(), people);
  drawVaultItems(r.fork(), people, horizon);
  drawSecondCanaries(r.fork(), people, horizon);
  drawPhones(r.fork(), people);
  drawSecondGuardians(r.fork(), people);
  drawLeavingWriters(r.fork(), people, horizon);
  drawPushDevices(r.fork(), people);
  drawCallsAndPushes(r.fork(), people);
  drawYearlyBirthdays(r.fork(), people, horizon);
  drawHeirs(r.fork(), people);
  drawThirdCanaries(r.fork(), people, horizon);
  drawGuardianConsents(r.fork(), people);
  return people;
}

/**
 * One guarded owner in three withdraws their guardian consent (Data Consents, docs/decisions/data-rights.md) one to
 * four days before the last moment they can still act — their death, the lapse their false report falls in, or the
 * report itself. While it is withdrawn a guardian's report of their death is refused (403); their executor's key
 * still reports. Half of them allow it again before the report comes (it must then be taken), half not before the
 * report's last try (and those who die never do). Drawn last, so the rest of a seed's population is what it was.
 */
function drawGuardianConsents(r: Random, people: PersonPlan[]) {
  for (const p of people) {
    const g = p.guardian;
    if (!g || !r.chance(1 / 3)) continue;
    const lapses = p.absences.filter((a) => a.kind === 'lapse' && a.from <= g.reportFrom).map((a) => a.from);
    const lastFree = Math.min(p.diesAt ?? Number.POSITIVE_INFINITY, g.reportFrom, ...lapses);
    const withdraw = Math.round(lastFree - r.between(1, 4) * DAY);
    if (withdraw <= 0) continue;
    p.guardianConsent = r.chance(0.5)
      ? [
          { at: withdraw, consent: false },
          { at: Math.round(withdraw + r.between(0.2, 0.9) * (lastFree - withdraw)), consent: true },
        ]
      : [{ at: withdraw, consent: false }];
  }
}

/**
 * One person in five who wrote messages asks to delete their account too, between 5 % and 60 % into the run: what they
 * wrote and was not released by their erasure a week later never is (a deletion one asks for does not wait for
 * releases). Not those who die, have a guardian or a dead-man's switch, guard someone or are given a vault file (it
 * would go with them). Drawn last.
 */
function drawLeavingWriters(r: Random, people: PersonPlan[], horizon: number) {
  const roles = new Set(
    people.flatMap((p) => [
      ...(p.guardian ? [p.guardian.by, ...(p.guardian.second ? [p.guardian.second.by] : [])] : []),
      ...(p.vault ? [p.vault.recipient] : []),
    ]),
  );
  for (const p of people) {
    // Who wrote something before the run (a message they meant to write after leaving is never written).
    const wrote = p.messages.some((m) => m.writtenAtMs === undefined);
    if (!r.chance(1 / 5) || !wrote || p.leavesAt !== null || p.diesAt !== null || p.guardian || p.deadmanHours !== null || roles.has(p.index)) continue;
    p.leavesAt = Math.round(r.between(0.05, 0.6) * horizon);
  }
}

/**
 * One in two of those whose death a guardian reports — a real death, or a false report during a lapse — have a
 * second guardian and a quorum of 2: the veto window opens only when both reported on the same open report (the
 * second up to two days after the first), and one in two of those second guardians then puts the confirmation on
 * hold for 1–4 days (docs/decisions/guardian-ladder.md). A check-in between the two votes refutes the report the
 * first opened; the second guardian of a false report keeps trying for two days after the lapse ends (refused while
 * the owner has not missed again). The second guardian is someone who neither dies, leaves nor has a dead-man's
 * switch. Drawn last.
 */
function drawSecondGuardians(r: Random, people: PersonPlan[]) {
  for (const p of people) {
    const g = p.guardian;
    if (g?.via !== 'guardian' || !r.chance(1 / 2)) continue;
    const others = people.filter((c) => c.index !== p.index && c.index !== g.by && c.diesAt === null && c.leavesAt === null && c.deadmanHours === null);
    if (!others.length) continue;
    g.second = {
      by: r.pick(others).index,
      reportFrom: g.reportFrom + Math.round(r.between(0, 2) * DAY),
      reportUntil: g.falseReport ? g.reportUntil + 2 * DAY : g.reportUntil,
      holdDays: r.chance(0.5) ? r.int(1, 4) : null,
    };
  }
}

/**
 * One person in three verifies a phone (the code comes by text) and chooses text messages beside email for their
 * notices: a warning reaches them when either channel takes it, and the owner notices' fallback tries the other when
 * the chosen ones fail. One message in three to such a person goes by sms. Drawn last.
 */
function drawPhones(r: Random, people: PersonPlan[]) {
  for (const p of people) p.phone = r.chance(1 / 3);
  for (const p of people) for (const m of p.messages) if (people[m.recipient]!.phone && r.chance(1 / 3)) m.method = 'sms';
}

/**
 * One person in four registers a device for push notifications (a browser's subscription, `POST
 * /api/notify/push/subscriptions`) and chooses push beside their other methods — or, one in three of them, alone: a
 * warning reaches them when any of their channels takes it, push has outages of its own, and while it is down a
 * warning for someone who chose push alone goes to every other way to reach them (their email). Drawn last.
 */
function drawPushDevices(r: Random, people: PersonPlan[]) {
  for (const p of people) p.push = r.chance(1 / 4) ? (r.chance(1 / 3) ? 'alone' : 'beside') : null;
}

/**
 * Of the messages still going by email, one in six to someone with a verified phone goes by a voice call, and one in
 * four to someone with a push device by push (to every device of theirs). A Twilio outage holds calls as it holds
 * texts; a push outage holds pushes. Drawn last.
 */
function drawCallsAndPushes(r: Random, people: PersonPlan[]) {
  for (const p of people)
    for (const m of p.messages) {
      if (m.method) continue;
      const to = people[m.recipient]!;
      if (to.phone && r.chance(1 / 6)) m.method = 'call';
      else if (to.push && r.chance(1 / 4)) m.method = 'push';
    }
}

/**
 * One person in five keeps a second canary with the other interval (a weekly backup of a daily one, a daily one
 * beside a weekly one): its misses are its own, any check-in disarms (docs/server-rules.md). Token people check in
 * on it on its own schedule (away and dead as on the first); the Heartbeat checks in on both. Drawn last.
 */
function drawSecondCanaries(r: Random, people: PersonPlan[], horizon: number) {
  for (const p of people) {
    if (!r.chance(1 / 5)) continue;
    const intervalMs = p.intervalMs === DAY ? 7 * DAY : DAY;
    const lateness = r.pick([0.02, 0.05, 0.1]);
    p.more.push({ name: 'backup', intervalMs, checkIns: p.via === 'token' ? drawCheckIns(r, intervalMs, lateness, p.absences, p.diesAt, horizon) : [] });
  }
}

/**
 * One in three of those with a backup canary keeps a third, "travel", every three days: more than two canaries,
 * each with its own misses and warnings, any check-in disarming every message. Drawn last.
 */
function drawThirdCanaries(r: Random, people: PersonPlan[], horizon: number) {
  for (const p of people) {
    if (!p.more.length || !r.chance(1 / 3)) continue;
    const lateness = r.pick([0.02, 0.05, 0.1]);
    p.more.push({ name: 'travel', intervalMs: 3 * DAY, checkIns: p.via === 'token' ? drawCheckIns(r, 3 * DAY, lateness, p.absences, p.diesAt, horizon) : [] });
  }
}

/**
 * Vault items, drawn last: every owner with a guardian or an executor gives one file under a death condition (the
 * death flag, or the recipient's birthday on a day of the run), so a confirmed death has a file to release; one
 * other person in six gives one for an exact date of the run. The recipient is someone who stays: a file given to
 * an account that is deleted goes with it (docs/decisions/vault.md), and the recipient is the only one who can open it.
 */
function drawVaultItems(r: Random, people: PersonPlan[], horizon: number) {
  const stays = people.filter((p) => p.leavesAt === null && p.deadmanHours === null);
  for (const p of people) {
    const guarded = p.guardian !== null;
    if (p.leavesAt !== null || (!guarded && !r.chance(1 / 6))) continue;
    const others = stays.filter((c) => c.index !== p.index);
    if (!others.length) continue;
    const recipient = r.pick(others).index;
    p.vault = {
      recipient,
      condition: !guarded
        ? { type: 'exact_date', atMs: Math.round(r.between(1, horizon / DAY) * DAY), dateOnly: r.chance(0.5) }
        : r.chance(0.5)
          ? { type: 'death_flag' }
          : { type: 'recipient_birthday', dayMs: Math.round(r.between(0, horizon / DAY)) * DAY, everyYear: false },
    };
  }
}

/**
 * Birthday items given again every year (docs/decisions/vault.md): the release of one year's writes next year's
 * message in its own batch, which must exist exactly once for each release, whatever the faults. Those of owners who
 * die, so that the release happens, with the birthday 5–15 days after the death (within the run); half the others.
 * Drawn last.
 */
function drawYearlyBirthdays(r: Random, people: PersonPlan[], horizon: number) {
  for (const p of people) {
    const c = p.vault?.condition;
    if (c?.type !== 'recipient_birthday' || (p.diesAt === null && !r.chance(1 / 2))) continue;
    c.everyYear = true;
    if (p.diesAt !== null) c.dayMs = Math.min(Math.floor(horizon / DAY) - 1, Math.round((p.diesAt + r.between(5, 15) * DAY) / DAY)) * DAY;
  }
}

/**
 * Half the people with a dead-man's switch name heirs (docs/decisions/legacy-copies.md): one, or two in three cases
 * out of ten, of the people who stay (no switch of their own, not leaving), each with some of the parts. They become
 * contacts first (an heir must be one). If the switch erases the account each heir receives exactly one copy and is
 * told once; if it is kept, nobody receives or hears anything. Drawn last.
 */
function drawHeirs(r: Random, people: PersonPlan[]) {
  const stays = people.filter((p) => p.leavesAt === null && p.deadmanHours === null);
  for (const p of people) {
    if (p.deadmanHours === null || !r.chance(1 / 2)) continue;
    const others = stays.filter((c) => c.index !== p.index);
    for (let n = r.chance(0.3) ? 2 : 1; n > 0 && others.length; n--) {
      const heir = others.splice(r.int(0, others.length - 1), 1)[0]!;
      const parts = LEGACY_PARTS.filter(() => r.chance(1 / 2));
      p.heirs.push({ person: heir.index, parts: parts.length ? parts : [r.pick(LEGACY_PARTS)] });
    }
  }
}

/**
 * One person in four sets a dead-man's switch at the start: 2, 3 or 5 days for daily people, 2, 3 or 4 weeks for
 * weekly ones. Those who die, and those away longer than it (a vacation, a lapse), have their account deleted —
 * after a warning that reached them a day before (docs/server-rules.md). Not those who leave anyway, nor anyone's
 * guardian (a guardian's report is what the run needs from them). Drawn last, so the rest of a seed's population
 * is what it was before switches were simulated.
 */
function drawDeadmanSwitches(r: Random, people: PersonPlan[]) {
  const guardians = new Set(people.map((p) => p.guardian?.by).filter((by) => by !== undefined));
  for (const p of people) {
    if (!r.chance(1 / 4) || p.leavesAt !== null || guardians.has(p.index)) continue;
    p.deadmanHours = p.intervalMs === DAY ? r.pick([2, 3, 5]) * 24 : r.pick([2, 3, 4]) * 7 * 24;
  }
}

/**
 * One person in six pays for Pro through the checkout instead of being given it, and two in three of those cancel
 * it during the run (if still there): the plan then ends with the paid month and the Free limits apply, which
 * must change nothing about what is released (docs/decisions/billing.md: "messages still release"). Drawn last.
 */
function drawSubscriptions(r: Random, people: PersonPlan[], horizon: number) {
  for (const p of people) {
    if (!r.chance(1 / 6)) continue;
    const until = Math.min(horizon * 0.6, p.diesAt ?? horizon, p.leavesAt ?? horizon);
    p.subscription = { cancelsAt: r.chance(2 / 3) ? Math.round(r.between(0, until)) : null };
  }
}

/**
 * One message in five is written during the run instead of before it (by someone still there): a message written
 * while its sender is already missing check-ins arms at once if the current run of misses satisfies its rule.
 * Drawn last, like the guardians, so the rest of a seed's population stays as it was.
 */
function drawWritingTimes(r: Random, people: PersonPlan[], horizon: number) {
  for (const p of people) {
    const until = Math.min(horizon * 0.8, p.diesAt ?? horizon, p.leavesAt ?? horizon);
    for (const m of p.messages) {
      if (m.rules.some((rule) => rule.type === 'delay_after_death') || !r.chance(0.2)) continue;
      m.writtenAtMs = Math.round(r.between(0, until));
    }
  }
}

/**
 * Guardians, drawn after everyone else so the rest of a seed's population is what it was before: four in five
 * of those who die have a guardian who reports the death one to six days later, and three in ten of those
 * with a lapse one who reports a death that did not happen, during the lapse. The guardian is someone who
 * neither dies nor leaves; one report in four comes instead from the owner's executor, with an API key of the
 * owner's (`webhook:death-verification`), which opens the veto window without waiting for a miss. Each guarded owner also leaves one message with a `delay_after_death` rule (0, 1
 * or 3 days; a window of 0 or 1 day), so a confirmed death — or a false one left unrefuted — has something to
 * release.
 */
function drawGuardians(r: Random, people: PersonPlan[], horizon: number) {
  const candidates = people.filter((p) => p.diesAt === null && p.leavesAt === null);
  for (const p of people) {
    if (p.leavesAt !== null) continue;
    const lapse = p.absences.find((a) => a.kind === 'lapse');
    let plan: GuardianPlan | null = null;
    if (p.diesAt !== null && r.chance(0.8)) {
      const from = p.diesAt + Math.round(r.between(1, 6) * DAY);
      plan = { via: 'guardian', by: -1, reportFrom: from, reportUntil: horizon, falseReport: false, second: null };
    } else if (p.diesAt === null && lapse && r.chance(0.3)) {
      // While they have missed and not yet come back: the guardian gives up once they would have heard from them.
      plan = {
        via: 'guardian',
        by: -1,
        reportFrom: Math.round(lapse.from + r.between(1.2, 2) * p.intervalMs),
        reportUntil: Math.round(lapse.to),
        falseReport: true,
        second: null,
      };
    }
    const others = candidates.filter((c) => c.index !== p.index);
    if (!plan || !others.length || plan.reportFrom >= Math.min(plan.reportUntil, horizon)) continue;
    plan.by = r.pick(others).index;
    // One in four reports through an executor's key instead (drawn here, after the rest of the plan).
    if (r.chance(0.25)) plan.via = 'key';
    p.guardian = plan;
    let recipient = r.int(0, people.length - 2);
    if (recipient >= p.index) recipient++;
    p.messages.push({ recipient, deliverAtMs: 0, rules: [{ type: 'delay_after_death', days: r.pick([0, 1, 3]), windowDays: r.pick([0, 1]) }] });
  }
}
