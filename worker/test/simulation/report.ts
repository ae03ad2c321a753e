import { timelineOf } from './behaviour-log';
import { formatCosts } from './costs';
import { DAY, HOUR } from './population';
import {
  type DeletionVerdict,
  deathOf,
  type GuardianConsentVerdict,
  type HeirVerdict,
  judge,
  judgeDeletions,
  judgeGuardianConsent,
  judgeHeirs,
  judgeWarnings,
  judgeYearly,
  LATENESS_BOUND_MS,
  type Verdict,
  vetoWindowsOf,
  type WarningVerdict,
  type YearlyVerdict,
} from './oracle';
import type { SimulationRun } from './run-simulation';

export interface Summary {
  userDays: number;
  messages: number;
  due: number;
  done: number;
  falseReleases: number;
  missed: number;
  late: number;
  duplicated: number;
  eitherWay: number;
  worstLatenessMs: number;
  /** For each release of a message whose only rules are missed check-ins: the warnings that reached its owner in that cycle first. */
  warningsBeforeRelease: number[];
  /** The messages of senders who withdrew their messages consent during the run, and how many of those were released. */
  pausedSenders: ReleasedOf;
  /** The messages to people who deleted their account, and how many of those were released (before they left). */
  toLeavers: ReleasedOf;
  /** The messages of senders whose plan ended during the run (Free at the end), and how many were released. */
  downgraded: ReleasedOf;
  /** The messages with a delay-after-death rule, and how many were released. */
  afterDeath: ReleasedOf;
  /** Why verdicts went "either way" (the first reason of each), most frequent first. */
  eitherWayWhy: [string, number][];
  /** Vault items (judged as the messages that carry them), by condition: how many, and how many were released. */
  vault: Record<'exact date' | 'death flag' | 'birthday', ReleasedOf>;
  /** Dead-man's switches: how many, and their verdicts by kind. */
  deletions: { switches: number; byKind: Partial<Record<DeletionVerdict['kind'], number>>; messagesOfErased: ReleasedOf; messagesOfLeavers: ReleasedOf };
}

/** The seed and the command that replays a run, for its failures. */
const replayOf = (run: SimulationRun) =>
  `seed ${run.log.seed}; replay: SIM_SEED=${run.log.seed} SIM_PEOPLE=${run.log.people.length} SIM_DAYS=${(run.log.end - run.log.start) / DAY} npm run simulate`;

/** The ten largest of a by-statement count, one per line, per user-day. */
const largestTen = (byStatement: Record<string, number>, userDays: number) =>
  Object.entries(byStatement)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([k, n]) => `    ${(n / userDays).toFixed(2)}  ${k}`)
    .join('\n');

/** The verdicts that fail a run. */
const FAILING_DELETIONS: readonly DeletionVerdict['kind'][] = ['false deletion', 'missed deletion', 'late deletion'];

/** How many messages of a kind there were, and how many of them were released. */
interface ReleasedOf {
  messages: number;
  released: number;
}

const releasedOf = (verdicts: Verdict[]): ReleasedOf => ({
  messages: verdicts.length,
  released: verdicts.filter((v) => v.message.releasedAt !== null).length,
});

/** Messages going out on `channel` besides the inbox, and how many of them were released: "5 (released 4)". */
function byChannel(run: SimulationRun, channel: SimulationRun['log']['messages'][number]['channel']): string {
  const on = run.log.messages.filter((m) => m.channel === channel);
  return `${on.length} (released ${on.filter((m) => m.releasedAt !== null).length})`;
}

/** Each value with how often it occurs, most frequent first. */
function countBy(values: string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

export function summarise(run: SimulationRun, verdicts: Verdict[], deletions: DeletionVerdict[]): Summary {
  const count = (...kinds: Verdict['kind'][]) => verdicts.filter((v) => kinds.includes(v.kind)).length;
  const warningsBeforeRelease: number[] = [];
  for (const v of verdicts) {
    const m = v.message;
    if (m.releasedAt === null || !m.rules.length || m.rules.some((r) => r.type !== 'missed_checkins')) continue;
    // On the canary that warned most in its cycle before the release (the one whose misses released it).
    const counts = run.log.people[m.sender]!.canaries.map((c) => {
      const cycleStart = Math.max(c.createdAt, ...c.checkIns.filter((t) => t < m.releasedAt!));
      return c.warnings.filter((w) => w >= cycleStart && w < m.releasedAt!).length;
    });
    warningsBeforeRelease.push(Math.max(...counts));
  }
  return {
    userDays: run.userDays,
    messages: verdicts.length,
    due: count('released', 'late', 'missed'),
    done: verdicts.filter((v) => v.message.releasedAt !== null).length,
    falseReleases: count('false release'),
    missed: count('missed'),
    late: count('late'),
    duplicated: count('duplicated'),
    eitherWay: count('either way, released', 'either way, not released'),
    worstLatenessMs: Math.max(0, ...verdicts.map((v) => v.latenessMs ?? 0)),
    warningsBeforeRelease,
    pausedSenders: releasedOf(verdicts.filter((v) => run.log.people[v.message.sender]!.consentChanges.length > 0)),
    toLeavers: releasedOf(verdicts.filter((v) => run.log.people[v.message.recipient]!.deletionRequestedAt !== null)),
    downgraded: releasedOf(verdicts.filter((v) => run.log.people[v.message.sender]!.subscription?.planAtEnd === 'free')),
    afterDeath: releasedOf(verdicts.filter((v) => v.message.rules.some((r) => r.type === 'delay_after_death'))),
    eitherWayWhy: countBy(verdicts.filter((v) => v.kind.startsWith('either way')).map((v) => v.reason ?? 'unknown')),
    vault: {
      'exact date': releasedOf(verdicts.filter((v) => v.message.vault && v.message.rules[0]?.type === 'fixed_date')),
      'death flag': releasedOf(verdicts.filter((v) => v.message.vault && v.message.rules[0]?.type === 'delay_after_death')),
      birthday: releasedOf(verdicts.filter((v) => v.message.vault && v.message.rules[0]?.type === 'recipient_birthday')),
    },
    deletions: {
      switches: deletions.length,
      byKind: Object.fromEntries(countBy(deletions.map((d) => d.kind))),
      messagesOfErased: releasedOf(verdicts.filter((v) => run.log.people[v.message.sender]!.deadman?.erasedAt)),
      messagesOfLeavers: releasedOf(verdicts.filter((v) => run.log.people[v.message.sender]!.deletionRequestedAt !== null)),
    },
  };
}

const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;

export function formatSummary(run: SimulationRun, s: Summary): string {
  const w = [...s.warningsBeforeRelease].sort((a, b) => a - b);
  const subscribed = run.log.people.filter((p) => p.subscription);
  const quorum2 = run.log.people.filter((p) => p.quorum > 1);
  const windowOpened = new Set(quorum2.filter((p) => vetoWindowsOf(p, LATENESS_BOUND_MS).length));
  const changes = (consent: boolean) => run.log.people.reduce((n, p) => n + p.consentChanges.filter((c) => c.consent === consent).length, 0);
  const noWarning = w.filter((n) => n === 0).length;
  return [
    `Simulation seed ${run.log.seed}: ${run.log.people.length} people × ${(run.log.end - run.log.start) / DAY} days = ${s.userDays.toLocaleString('en')} user-days, ${s.messages} messages, in ${(run.wallMs / 1000).toFixed(1)} s`,
    `  releases due ${s.due}, done ${s.done} (of which judged either way: ${s.eitherWay}), false ${s.falseReleases}, missed ${s.missed}, late beyond ${LATENESS_BOUND_MS / HOUR} h ${s.late}, duplicated ${s.duplicated}`,
    `  worst lateness of a judged release: ${minutes(s.worstLatenessMs)}`,
    `  judged either way because: ${s.eitherWayWhy.map(([why, n]) => `${why} ${n}`).join('; ') || 'none'}`,
    `  warnings that reached the owner in the cycle before each release of a missed-check-ins-only message: ${w.length ? `min ${w[0]}, median ${w[Math.floor(w.length / 2)]}, max ${w[w.length - 1]} (${noWarning} with none)` : 'no such release'}`,
    `  check-ins accepted ${run.log.people.reduce((n, p) => n + p.checkIns.length, 0)} (attempts refused and retried: ${run.checkInAttemptsRefused}; signed in again: ${run.signIns}); warnings delivered ${run.log.people.reduce((n, p) => n + p.canaries.reduce((k, c) => k + c.warnings.length, 0), 0)}; people with a second canary ${run.log.people.filter((p) => p.canaries.length > 1).length}, with a third ${run.log.people.filter((p) => p.canaries.length > 2).length}`,
    `  messages written during the run ${run.log.messages.filter((m) => m.createdAt > run.log.start).length} (refused for good: ${run.messagesNotWritten}); messages the service holds that no one wrote ${run.unwrittenMessages.length} (any fails the run)`,
    `  messages consent withdrawn ${changes(false)} times, allowed again ${changes(true)}; messages of senders who withdrew it: ${s.pausedSenders.messages}, released ${s.pausedSenders.released}`,
    `  people who deleted their account ${run.log.people.filter((p) => p.deletionRequestedAt !== null).length}; messages to them: ${s.toLeavers.messages}, released before they left ${s.toLeavers.released}; messages of them: ${s.deletions.messagesOfLeavers.messages}, released before they were erased ${s.deletions.messagesOfLeavers.released}`,
    `  Pro bought through checkout ${subscribed.length}, cancelled during the run ${subscribed.filter((p) => p.subscription!.cancelledAt).length}, on Free at the end ${subscribed.filter((p) => p.subscription!.planAtEnd === 'free').length}; messages of those now on Free: ${s.downgraded.messages}, released ${s.downgraded.released}`,
    `  quorums of 2 guardians ${quorum2.length} (of living people, falsely reported: ${quorum2.filter((p) => p.diesAt === null).length}; windows opened ${windowOpened.size}; reported but refuted before the second vote ${quorum2.filter((p) => p.deathVotes.length && !windowOpened.has(p)).length}), holds placed ${run.log.people.reduce((n, p) => n + p.holds.length, 0)}`,
    `  deaths reported ${run.log.people.filter((p) => p.deathVotes.length).length}, by a guardian or (${run.log.people.filter((p) => p.deathVotes.length && p.reporter === 'key').length} of them) an executor's key (confirmed ${run.log.people.filter((p) => deathOf(p, LATENESS_BOUND_MS).at !== null).length}, the rest refuted by a check-in); messages with a delay-after-death rule: ${s.afterDeath.messages}, released ${s.afterDeath.released}`,
    `  people with a verified phone (text chosen beside email, unless they chose push alone) ${run.log.people.filter((p) => p.phone).length}; messages by sms ${byChannel(run, 'sms')}, by call ${byChannel(run, 'call')}, by push ${byChannel(run, 'push')}; people with a push device ${run.log.people.filter((p) => p.push).length} (${run.pushAlone} chose push alone): notices pushed ${run.noticesByPush}, warnings that reached them first by push ${run.warningsFirstByPush}; outages: email ${run.log.outages.filter((o) => (o.channel ?? 'email') === 'email').length}, sms ${run.log.outages.filter((o) => o.channel === 'sms').length}, push ${run.log.outages.filter((o) => o.channel === 'push').length}`,
    `  vault items (judged with the messages): ${Object.entries(s.vault)
      .map(([condition, r]) => `${condition} ${r.messages} (released ${r.released})`)
      .join(', ')}`,
    `  dead-man's switches ${s.deletions.switches}: ${
      Object.entries(s.deletions.byKind)
        .map(([kind, n]) => `${kind} ${n}`)
        .join(', ') || 'none'
    } (false, missed and late deletions fail the run); warnings of a deletion that reached the owner ${run.log.people.reduce((n, p) => n + (p.deadman?.warnings.length ?? 0), 0)}; messages of those erased: ${s.deletions.messagesOfErased.messages}, released before ${s.deletions.messagesOfErased.released}`,
    `  wall time by phase (ms): ${JSON.stringify(Object.fromEntries(Object.entries(run.phaseMs).map(([k, v]) => [k, Math.round(v)])))}`,
    `  Durable Object requests by method: ${Object.entries(run.usage.doCalls)
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${(n / s.userDays).toFixed(2)}`)
      .join(', ')} per user-day`,
    `  D1 rows written by table: ${Object.entries(run.usage.d1WritesByTable)
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${(n / s.userDays).toFixed(2)}`)
      .join(', ')} per user-day`,
    `  D1 stored by table (values' bytes a user at the end, the outbox included): ${Object.entries(run.usage.d1PayloadBytesByTable)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([k, n]) => `${k} ${Math.round(n / run.log.people.length).toLocaleString('en')}`)
      .join(', ')}`,
    `  queue messages by type: ${Object.entries(run.usage.queueMessagesByType)
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${(n / s.userDays).toFixed(2)}`)
      .join(', ')} per user-day`,
    `  D1 rows written by statement (the ten largest, per user-day):\n${largestTen(run.usage.d1WritesByStatement, s.userDays)}`,
    `  D1 rows read by statement (the ten largest, per user-day):\n${largestTen(run.usage.d1ReadsByStatement, s.userDays)}`,
    `  Durable Object rows written by statement or storage call (the ten largest, per user-day):\n${largestTen(run.usage.doWritesByStatement, s.userDays)}`,
    `  faults: queue ${JSON.stringify(run.queueStats)}; alarms ${JSON.stringify(run.alarmStats)}; D1 round trips held back ${run.usage.d1SlowBatches}; object calls crashed at their end ${run.usage.crashes}, between two steps ${run.usage.midCallCrashes.object} (and consumer batches ${run.usage.midCallCrashes.consumer}, people's requests ${run.usage.midCallCrashes.request}; of all these, ${run.usage.inFlightCrashes} while a call of theirs to an object was in flight); provider outages ${run.log.outages.length}`,
  ].join('\n');
}

/** Every failing verdict with the seed and the sender's timeline, to replay it. */
export function formatFailures(run: SimulationRun, verdicts: Verdict[]): string[] {
  return verdicts
    .filter((v) => v.kind === 'false release' || v.kind === 'missed' || v.kind === 'late' || v.kind === 'duplicated')
    .map(
      (v) =>
        `${v.kind.toUpperCase()} (${replayOf(run)}): message ${v.message.id}: ${v.reason ?? ''}; expected ${v.expectedAt === null ? 'never' : new Date(v.expectedAt).toISOString()}, released ${v.message.releasedAt === null ? 'never' : new Date(v.message.releasedAt).toISOString()}\n${timelineOf(run.log, v.message.sender)}`,
    );
}

/** Every failing dead-man verdict with the seed and the person's timeline. */
export function formatDeletionFailures(run: SimulationRun, deletions: DeletionVerdict[]): string[] {
  return deletions
    .filter((d) => FAILING_DELETIONS.includes(d.kind))
    .map(
      (d) =>
        `${d.kind.toUpperCase()} (${replayOf(run)}): person ${d.person.index}: ${d.reason ?? ''}; expected ${d.expectedAt === null ? 'never' : new Date(d.expectedAt).toISOString()}, erased ${d.person.deadman?.erasedAt ? new Date(d.person.deadman.erasedAt).toISOString() : 'never'}\n${timelineOf(run.log, d.person.index)}`,
    );
}

/** Every yearly birthday item whose years after are not one per release, with the seed and the sender's timeline. */
export function formatYearlyFailures(run: SimulationRun, yearly: YearlyVerdict[]): string[] {
  return yearly
    .filter((y) => y.kind === 'wrong')
    .map((y) => `YEARLY ITEM WRONG (${replayOf(run)}): message ${y.message.id}: ${y.reason}\n${timelineOf(run.log, y.message.sender)}`);
}

/** Every heir who received the wrong thing, with the seed and the owner's timeline. */
export function formatHeirFailures(run: SimulationRun, heirs: HeirVerdict[]): string[] {
  return heirs
    .filter((h) => h.kind === 'wrong')
    .map((h) => `HEIR WRONG (${replayOf(run)}): person ${h.heir.person}, heir of person ${h.owner.index}: ${h.reason}\n${timelineOf(run.log, h.owner.index)}`);
}

/** Every guardian-consent rule a report's answer broke, with the seed and the owner's timeline. */
export function formatGuardianConsentFailures(run: SimulationRun, consents: GuardianConsentVerdict[]): string[] {
  return consents.flatMap((c) =>
    c.wrong.map((why) => `GUARDIAN CONSENT WRONG (${replayOf(run)}): person ${c.person.index}: ${why}\n${timelineOf(run.log, c.person.index)}`),
  );
}

/** Every message the service holds that no one wrote (a retried create's first try), with the seed and the sender's timeline. */
export function formatUnwrittenMessages(run: SimulationRun): string[] {
  return run.unwrittenMessages.map(
    (m) =>
      `MESSAGE NO ONE WROTE (${replayOf(run)}): message ${m.id} of person ${m.sender}: a create sent again wrote a second message\n${timelineOf(run.log, m.sender)}`,
  );
}

/** Every deadline passed with no warning to its owner, with the seed and the person's timeline. */
export function formatWarningFailures(run: SimulationRun, warnings: WarningVerdict[]): string[] {
  return warnings
    .filter((w) => w.kind === 'unwarned')
    .map(
      (w) =>
        `UNWARNED (${replayOf(run)}): person ${w.person.index}, canary "${w.canary.name}": the deadline ${new Date(w.deadline).toISOString()} passed unchecked and no warning reached them by ${new Date(w.dueBy).toISOString()}\n${timelineOf(run.log, w.person.index)}`,
    );
}

export function report(run: SimulationRun) {
  const verdicts = judge(run.log);
  const deletions = judgeDeletions(run.log);
  const warnings = judgeWarnings(run.log);
  const yearly = judgeYearly(run.log);
  const heirs = judgeHeirs(run.log);
  const consents = judgeGuardianConsent(run.log);
  const summary = summarise(run, verdicts, deletions);
  const failures = [
    ...formatFailures(run, verdicts),
    ...formatDeletionFailures(run, deletions),
    ...formatWarningFailures(run, warnings),
    ...formatYearlyFailures(run, yearly),
    ...formatHeirFailures(run, heirs),
    ...formatGuardianConsentFailures(run, consents),
    ...formatUnwrittenMessages(run),
  ];
  const warned = warnings.filter((w) => w.kind === 'warned').length;
  const written = yearly.filter((y) => y.kind === 'next year written').length;
  const text = [
    formatSummary(run, summary),
    `  deadlines passed unchecked (judged) ${warnings.length}: warned in time ${warned}, unwarned ${warnings.length - warned} (unwarned fails the run)`,
    `  yearly birthday items ${yearly.length}: released and next year's written once ${written}, not released and none written ${yearly.filter((y) => y.kind === 'nothing released, nothing written').length}, wrong ${yearly.length - written - yearly.filter((y) => y.kind === 'nothing released, nothing written').length} (wrong fails the run)`,
    `  heirs named ${heirs.length}: of erased accounts, received one copy and were told once ${heirs.filter((h) => h.kind === 'copy received, told once').length}; of kept accounts, received and heard nothing ${heirs.filter((h) => h.kind === 'nothing, the account kept').length}; wrong ${heirs.filter((h) => h.kind === 'wrong').length} (wrong fails the run)`,
    `  guardian consent withdrawn by ${consents.filter((c) => c.person.guardianConsentChanges.length).length} guarded owners (allowed again by ${consents.filter((c) => c.person.guardianConsentChanges.at(-1)?.consent).length}): guardians' reports refused meanwhile ${consents.reduce((n, c) => n + c.refused, 0)}, executors' reports taken meanwhile ${consents.reduce((n, c) => n + c.executorTaken, 0)}, guardians asked about them meanwhile ${consents.reduce((n, c) => n + c.askedWhileWithdrawn, 0)} (of ${run.log.people.reduce((n, p) => n + p.askedAbout.length, 0)} questions read in all), wrong ${consents.reduce((n, c) => n + c.wrong.length, 0)} (wrong fails the run)`,
    formatCosts(run.usage, run.userDays, run.log.people.length),
  ].join('\n');
  return { verdicts, summary, failures, text };
}
