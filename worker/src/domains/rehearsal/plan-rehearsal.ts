import type { Message, StoredRule } from '@afterword/db/schema';
import { canaryLabel } from '../../contracts/canary';
import type { TRehearsalStep } from '../../contracts/rehearsal';
import { humanTime } from '../../lib/human-time';
import type { CanaryFacts, TransitionRow } from '../canary/plan-wake';
import { firingMissRule } from '../messages/release/arm-on-missed-checkins';
import { describeRule } from '../messages/release/describe';
import { cancelDeadlineFor, isSpent, ruleDueAt } from '../messages/release/schedule';
import { type DeadmanFacts, planDeadman } from './plan-deadman';
import { simulateCanary } from './simulate-canary';

const HOUR_MS = 3_600_000;
/** A rehearsal looks at most this many misses ahead (a rule of missed_checkins(N) with N above waits longer). */
export const MAX_REHEARSED_MISSES = 20;

export interface RehearsalFacts {
  now: number;
  canaries: { facts: CanaryFacts; recorded: TransitionRow[] }[];
  messages: (Pick<Message, 'id' | 'rules' | 'deliver_at' | 'status' | 'cancel_deadline' | 'armed_at' | 'vault_item_id'> & { recipient: string })[];
  guardians: { active: number; ask_after_misses: number; veto_window_hours: number; quorum: number };
  /** The owner's death is already confirmed (nothing waits for it). */
  deathConfirmedAt: number | null;
  webhooks: { id: string; url: string; event: 'missed_checkins' | 'death_confirmed' }[];
  /** The dead-man's switch, when one is set. */
  deadman: DeadmanFacts | null;
}

export type PlannedStep = Omit<TRehearsalStep, 'reached' | 'gaps' | 'at'> & {
  at: number;
  /** Which of the canary's warnings a `warning` step is (its TEST copy has that notice's words). */
  warning?: 'grace_reminder' | 'late_rewarn';
};

const step = (s: Partial<PlannedStep> & Pick<PlannedStep, 'at' | 'kind' | 'title' | 'detail'>): PlannedStep => ({
  conditional: false,
  canary_id: null,
  message_id: null,
  webhook_id: null,
  misses: null,
  ...s,
});

/** When a rule of a message would fire in the rehearsed future: from the misses forecast, or its own time rule. */
function fireTime(rule: StoredRule, misses: readonly { at: number; misses: number }[], deathAt: number | null, notBefore: number, now: number) {
  if (rule.trigger_type === 'missed_checkins') {
    // The release engine's own test (arm-on-missed-checkins.ts): the first miss event this rule is satisfied by.
    return misses.find((m) => firingMissRule([rule], m.misses) >= 0)?.at ?? null;
  }
  const due = ruleDueAt(rule, deathAt == null ? null : new Date(deathAt), notBefore);
  return due == null ? null : Math.max(due, now);
}

/**
 * The plan of a rehearsal: what the engine would do if the owner stopped checking in at `facts.now`, as steps in
 * time order. Every time comes from the engine's own functions — each canary's wakes from plan-wake.ts
 * (simulateCanary), each message's firing and release from the release engine's schedule.ts and
 * firingMissRule — never from a second copy of the rules. What waits for a confirmed death is planned as if the
 * guardians reported it when first asked, and marked `conditional`.
 */
export function planRehearsal(facts: RehearsalFacts): PlannedStep[] {
  const { now } = facts;
  const steps: PlannedStep[] = [];
  const neededMisses = Math.min(
    MAX_REHEARSED_MISSES,
    Math.max(
      1,
      facts.guardians.active ? facts.guardians.ask_after_misses : 1,
      ...facts.messages.flatMap((m) => m.rules.filter((r) => r.trigger_type === 'missed_checkins').map((r) => Number(r.trigger_value))),
    ),
  );
  const allMisses: { at: number; misses: number; deadline: number; canaryId: string }[] = [];
  for (const { facts: canary, recorded } of facts.canaries) {
    const label = canaryLabel(canary.name);
    const forecast = simulateCanary(canary, recorded, now, neededMisses);
    for (const w of forecast.warnings) {
      steps.push(
        step({
          at: w.at,
          kind: 'warning',
          warning: w.kind,
          canary_id: canary.id,
          title:
            w.kind === 'grace_reminder' ? `Reminder: "${label}" enters its grace period` : `Warning: "${label}" passed its deadline before you were warned`,
          detail:
            w.kind === 'grace_reminder'
              ? `You are told to check in before ${humanTime(canary.last_check_in + canary.interval_seconds * 1000)}.`
              : 'Nothing counts until one grace period after this warning reaches you.',
        }),
      );
    }
    for (const m of forecast.misses) {
      allMisses.push({ ...m, canaryId: canary.id });
      steps.push(
        step({
          at: m.at,
          kind: 'miss',
          canary_id: canary.id,
          misses: m.misses,
          title: `"${label}": ${m.misses} missed check-in${m.misses === 1 ? '' : 's'}`,
          detail: m.misses === 1 ? 'The miss counts; you are told it was missed.' : 'Another whole interval without a check-in.',
        }),
      );
    }
  }
  allMisses.sort((a, b) => a.at - b.at || a.misses - b.misses);

  for (const hook of facts.webhooks.filter((w) => w.event === 'missed_checkins')) {
    for (const m of allMisses) {
      steps.push(
        step({
          at: m.at,
          kind: 'webhook',
          webhook_id: hook.id,
          canary_id: m.canaryId,
          misses: m.misses,
          title: `Webhook missed_checkins (${m.misses}) to ${hostOf(hook.url)}`,
          detail: 'A signed POST (Standard Webhooks), retried with backoff if your endpoint does not answer 2xx.',
        }),
      );
    }
  }

  // The guardian ladder: asked once the misses reach ask_after_misses; the veto window, if they reported then.
  let deathAt = facts.deathConfirmedAt;
  const asked = facts.guardians.active && facts.deathConfirmedAt == null ? allMisses.find((m) => m.misses >= facts.guardians.ask_after_misses) : undefined;
  if (asked) {
    const who = facts.guardians.active === 1 ? 'Your guardian is' : `Your ${facts.guardians.active} guardians are`;
    steps.push(
      step({
        at: asked.at,
        kind: 'guardians_asked',
        canary_id: asked.canaryId,
        title: `${who} asked whether they have heard from you`,
        detail: `After ${asked.misses} missed check-in(s).`,
      }),
    );
    deathAt = asked.at + facts.guardians.veto_window_hours * HOUR_MS;
    steps.push(
      step({
        at: deathAt,
        kind: 'veto_window_ends',
        conditional: true,
        title: 'Your death would be confirmed',
        detail: `Only if ${facts.guardians.quorum === 1 ? 'a guardian' : `${facts.guardians.quorum} guardians`} reported your death when asked: you would be told on every channel and have ${facts.guardians.veto_window_hours} hours to refute it by checking in.`,
      }),
    );
    for (const hook of facts.webhooks.filter((w) => w.event === 'death_confirmed')) {
      steps.push(
        step({
          at: deathAt,
          kind: 'webhook',
          webhook_id: hook.id,
          conditional: true,
          title: `Webhook death_confirmed to ${hostOf(hook.url)}`,
          detail: 'Only if your death were confirmed.',
        }),
      );
    }
  }

  for (const m of facts.messages) {
    const thing = m.vault_item_id ? 'Vault item' : 'Message';
    if (m.status === 'armed' && m.cancel_deadline) {
      steps.push(
        step({
          at: m.cancel_deadline.getTime(),
          kind: m.vault_item_id ? 'vault_released' : 'message_released',
          message_id: m.id,
          title: `${thing} to ${m.recipient} is released`,
          detail: 'It is armed already: its cancel window ends then.',
        }),
      );
      continue;
    }
    if (m.status !== 'scheduled') continue;
    if (!m.rules.length) {
      const at = Math.max(m.deliver_at.getTime(), now);
      steps.push(
        step({
          at,
          kind: m.vault_item_id ? 'vault_released' : 'message_released',
          message_id: m.id,
          title: `${thing} to ${m.recipient} is released`,
          detail: 'A scheduled letter: its delivery time.',
        }),
      );
      continue;
    }
    // The release engine arms on the first rule that fires (dueTimeRule / armOnMissedCheckins), then releases at its cancel deadline.
    let first: { rule: StoredRule; at: number } | null = null;
    for (const rule of m.rules) {
      if (isSpent(rule)) continue;
      const at = fireTime(rule, allMisses, deathAt, m.deliver_at.getTime(), now);
      if (at != null && (!first || at < first.at)) first = { rule, at };
    }
    if (!first) continue;
    const conditional = facts.deathConfirmedAt == null && (first.rule.trigger_type === 'delay_after_death' || first.rule.trigger_type === 'recipient_birthday');
    const releaseAt = cancelDeadlineFor(m, first.rule, first.at);
    if (releaseAt > first.at) {
      steps.push(
        step({
          at: first.at,
          kind: 'message_armed',
          message_id: m.id,
          conditional,
          title: `${thing} to ${m.recipient} is armed`,
          detail: `Rule "${describeRule(first.rule)}" fires; you are told, and a check-in before ${humanTime(releaseAt)} cancels it.`,
        }),
      );
    }
    steps.push(
      step({
        at: releaseAt,
        kind: m.vault_item_id ? 'vault_released' : 'message_released',
        message_id: m.id,
        conditional,
        title: `${thing} to ${m.recipient} is released`,
        detail: releaseAt > first.at ? 'Its cancel window ends.' : `Rule "${describeRule(first.rule)}" fires with no cancel window.`,
      }),
    );
  }
  steps.push(...planDeadman(facts.deadman, now));
  const order = (s: PlannedStep) =>
    [
      'warning',
      'miss',
      'guardians_asked',
      'webhook',
      'message_armed',
      'message_released',
      'vault_released',
      'veto_window_ends',
      'deletion_scheduled',
      'account_deleted',
    ].indexOf(s.kind);
  return steps.sort((a, b) => a.at - b.at || order(a) - order(b));
}

function hostOf(url: string) {
  try {
    return new URL(url).host;
  } catch {
    return 'your endpoint';
  }
}
