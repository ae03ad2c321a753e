import type { Outage } from './faults';
import { DAY, HOUR } from './population';

/**
 * What happened, as seen from outside the engine: what each person did (the check-ins the service
 * accepted, the messages they wrote and their rules), what reached the owners (the warnings a channel
 * accepted, read from their mailboxes) and what reached the recipients (the release instant their inbox
 * shows, and the copies a channel delivered). The oracle (oracle.ts) reads nothing else.
 */
export interface PersonLog {
  index: number;
  userId: string;
  email: string;
  /** Their verified phone (null: none): text messages are chosen beside email for their notices. */
  phone: string | null;
  /** Their device's push endpoint (null: none): push is chosen beside their other methods. */
  push: string | null;
  via: 'token' | 'heartbeat';
  /** Their canaries: every person has one, some a second with the other interval (a weekly backup of a daily one, or the reverse). */
  canaries: CanaryLog[];
  /** Every check-in the service accepted, on any canary (absolute ms), in order: any of them disarms, refutes a death report and moves a dead-man's switch. */
  checkIns: number[];
  diesAt: number | null;
  absences: { from: number; to: number; kind: string }[];
  /** Changes of their messages consent the service accepted (absolute ms), in order. */
  consentChanges: { at: number; consent: boolean }[];
  /**
   * Changes of their guardian consent the service accepted (absolute ms), in order; `since`: the first attempt of
   * the change, which may have been written before its answer was lost (the state is unsure from then to `at`).
   */
  guardianConsentChanges: { at: number; since: number; consent: boolean }[];
  /**
   * When a guardian of theirs was asked "Have you heard from …?" about them (the email reaching the guardian's
   * mailbox), for the guardians who guard no one else; in order.
   */
  askedAbout: number[];
  /** Every report of their death a guardian (or their second) or their executor's key made, with the service's answer. */
  reportAttempts: { at: number; by: 'guardian' | 'second' | 'key'; status: number }[];
  /** When the service accepted their request to delete their account (null: they stay). */
  deletionRequestedAt: number | null;
  /**
   * The accepted reports of their death (true or not), in order: each guardian's vote, or their executor's key
   * report — the earliest instant each may have been written. When a veto window opened is the oracle's to work
   * out from these, the quorum and the check-ins (oracle.ts vetoWindowsOf).
   */
  deathVotes: number[];
  /** Holds a guardian placed on the confirmation (accepted at `at`, in force until `until`), in order. */
  holds: { at: number; until: number }[];
  /** Their guardians' quorum (1 by default; 2 for those with two guardians who must both report). */
  quorum: number;
  /** Who would report it: a guardian, or their executor with their own key (null: nobody). */
  reporter: 'guardian' | 'key' | null;
  /** Their plan as their billing page showed it: bought at the start, cancelled (at), and what it was at the end. */
  subscription: { cancelledAt: number | null; planAtEnd: string } | null;
  /**
   * Their dead-man's switch (null: none): its hours, when they set it, the deletion warnings that reached them
   * (read from their mailbox), and when their account was found erased (null: it was not).
   */
  deadman: { hours: number; setAt: number; warnings: number[]; erasedAt: number | null } | null;
  /** The heirs they named for their dead-man's switch, and what reached each of them from this person. */
  heirs: HeirLog[];
  /** Their quiet hours as they set them ("HH:MM" in their time zone): a warning waits for their end. */
  quietHours: { start: string; end: string; timeZone: string };
}

/** An heir of a dead-man deletion (docs/decisions/legacy-copies.md), and what reached them from its owner by the end of the run. */
export interface HeirLog {
  person: number;
  parts: string[];
  /** The copies from this owner the heir's Inbox lists at the end: their parts, and whether the archive downloaded whole. */
  copies: { parts: string[]; downloaded: boolean }[];
  /** The notices "… left you a copy of their Afterword account" naming this owner that reached the heir, in order. */
  told: number[];
}

/** One canary of a person: its misses are its own (docs/server-rules.md: a rule fires on the misses of any of them). */
export interface CanaryLog {
  canaryId: string;
  token: string;
  /** Its name, which its warnings carry in their subject (how they are told apart in the mailbox). */
  name: string;
  intervalMs: number;
  createdAt: number;
  /** Check-ins the service accepted on this canary (a token ping: this one; the Heartbeat: every canary). */
  checkIns: number[];
  /** Its warnings a channel accepted for this owner, in order. */
  warnings: number[];
  /** The grace reminders among them ("Check in before …"), told apart from re-warnings by their subject. */
  reminders: number[];
}

export type RuleLog =
  | { type: 'missed_checkins'; n: number; windowMs: number }
  | { type: 'fixed_date'; at: number; windowMs: number }
  | { type: 'delay_after_death'; delayMs: number; windowMs: number }
  /** A vault item's birthday condition: the first such day (MM-DD) after the confirmed death, at 09:00 UTC. */
  | { type: 'recipient_birthday'; monthDay: string; windowMs: 0 };

export interface MessageLog {
  id: string;
  sender: number;
  recipient: number;
  createdAt: number;
  deliverAt: number;
  rules: RuleLog[];
  /** The channel it goes out on besides the inbox (email; sms or a call to a verified phone; push to a device). */
  channel: 'email' | 'sms' | 'call' | 'push';
  /** The instant the recipient's inbox shows it released (null: not released). */
  releasedAt: number | null;
  /** Successful deliveries on its channel: exactly one is the promise. */
  channelDeliveries: number;
  /** A vault item's message (the file given under a condition), not a message written as such. */
  vault?: boolean;
  /**
   * A yearly birthday item (`every_year`): the other messages its item holds at the end of the run (or, for a sender
   * erased, as last read before) — next years', which each release writes (docs/decisions/vault.md).
   */
  yearly?: { nextYears: { deliverAt: number; releasedAt: number | null }[] };
}

export interface BehaviourLog {
  seed: number;
  start: number;
  end: number;
  people: PersonLog[];
  messages: MessageLog[];
  outages: Outage[];
}

const rel = (log: BehaviourLog, t: number) => {
  const h = (t - log.start) / HOUR;
  return `d${Math.floor(h / 24)}+${(h % 24).toFixed(2)}h`;
};

/** One person's story, readable, for a failure report: what they did, what they were told, what they wrote. */
export function timelineOf(log: BehaviourLog, person: number): string {
  const p = log.people[person]!;
  const several = p.canaries.length > 1;
  const lines = [
    `person ${p.index} (${p.email}), ${p.canaries.map((c) => `canary "${c.name}" every ${c.intervalMs / DAY} day(s) created ${rel(log, c.createdAt)}`).join(', ')}, checks in by ${p.via}` +
      (p.diesAt === null ? '' : `, dies ${rel(log, log.start + p.diesAt)}`),
    ...p.absences.map((a) => `  away (${a.kind}) ${rel(log, log.start + a.from)} → ${rel(log, log.start + a.to)}`),
  ];
  const on = (c: CanaryLog) => (several ? ` ("${c.name}")` : '');
  const events = [
    ...p.canaries.flatMap((c) => c.checkIns.map((t) => ({ t, what: `check-in accepted${on(c)}` }))),
    ...p.canaries.flatMap((c) =>
      c.warnings.map((t) => ({ t, what: `${c.reminders.includes(t) ? 'grace reminder reached the owner' : 're-warning reached the owner'}${on(c)}` })),
    ),
    ...p.consentChanges.map((c) => ({ t: c.at, what: c.consent ? 'allowed messages again' : 'withdrew the messages consent' })),
    ...p.guardianConsentChanges.map((c) => ({ t: c.at, what: c.consent ? 'allowed guardians again' : 'withdrew the guardian consent' })),
    ...(p.deletionRequestedAt === null ? [] : [{ t: p.deletionRequestedAt, what: 'asked to delete their account (erased 7 days later)' }]),
    ...p.deathVotes.map((t) => ({
      t,
      what:
        p.reporter === 'key'
          ? 'their executor reported their death with their key'
          : p.quorum > 1
            ? `a guardian reported their death (the quorum is ${p.quorum})`
            : 'their guardian reported their death',
    })),
    ...p.holds.map((h) => ({ t: h.at, what: `a guardian put the confirmation on hold until ${rel(log, h.until)}` })),
    ...(p.subscription?.cancelledAt
      ? [{ t: p.subscription.cancelledAt, what: `cancelled their Pro subscription (plan at the end: ${p.subscription.planAtEnd})` }]
      : []),
    ...(p.deadman
      ? [
          { t: p.deadman.setAt, what: `set a dead-man's switch of ${p.deadman.hours} hours` },
          ...p.deadman.warnings.map((t) => ({ t, what: 'the dead-man warning (account to be deleted) reached them' })),
          ...(p.deadman.erasedAt === null ? [] : [{ t: p.deadman.erasedAt, what: 'their account was erased by the dead-man switch' }]),
        ]
      : []),
    ...p.heirs.flatMap((h) => h.told.map((t) => ({ t, what: `heir person ${h.person} was told of a copy left to them` }))),
    ...log.outages.map((o) => ({ t: o.from, what: `${o.channel ?? 'email'} down until ${rel(log, o.to)}` })),
  ].sort((a, b) => a.t - b.t);
  for (const e of events) lines.push(`  ${rel(log, e.t)}  ${e.what}`);
  for (const h of p.heirs)
    lines.push(
      `  heir person ${h.person} (parts ${h.parts.join(', ')}): at the end lists ${h.copies.length} copies from them${h.copies.map((c) => ` [${c.parts.join(', ')}${c.downloaded ? '' : ', did not download'}]`).join('')}`,
    );
  for (const m of log.messages.filter((m) => m.sender === person)) {
    const rules = m.rules.map((r) =>
      r.type === 'missed_checkins'
        ? `missed_checkins(${r.n}) window ${r.windowMs / DAY}d`
        : r.type === 'fixed_date'
          ? `fixed_date(${rel(log, r.at)}) window ${r.windowMs / DAY}d`
          : r.type === 'recipient_birthday'
            ? `recipient_birthday(${r.monthDay})`
            : `delay_after_death(${r.delayMs / DAY}d) window ${r.windowMs / DAY}d`,
    );
    lines.push(
      `  ${m.vault ? 'vault item' : 'message'} ${m.id} → person ${m.recipient}: deliver_at ${rel(log, m.deliverAt)}, rules [${rules.join(', ') || 'none'}], ` +
        `released ${m.releasedAt === null ? 'never' : rel(log, m.releasedAt)}, ${m.channelDeliveries} channel deliveries`,
    );
    for (const next of m.yearly?.nextYears ?? [])
      lines.push(`    next year's: deliver_at ${rel(log, next.deliverAt)}, released ${next.releasedAt === null ? 'never' : rel(log, next.releasedAt)}`);
  }
  return lines.join('\n');
}

export const relTime = rel;
