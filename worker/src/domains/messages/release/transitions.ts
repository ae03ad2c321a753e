import type { StoredRule } from '@afterword/db/schema';
import type { ServiceContext } from '../../../env';
import { commitTransition, type CommitResult, type TransitionCause } from './commit-transition';
import { describeRule } from './describe';
import type { EngineMessage } from './load-message';
import { nextBirthday } from './next-birthday';
import { syncReleaseTimer } from './release-timer';
import { cancelDeadlineFor } from './schedule';
import { humanTime } from '../../../lib/human-time';
import { appOrigin } from '../../../lib/app-origin';
import { armedNotice, releasedNotice } from '../notices/message-notice-texts';

/** A rule fired: scheduled → armed, with its cancel window (docs/server-rules.md "Messages, rules and release"). */
export function armMessage(
  ctx: ServiceContext,
  { message, recipientLabel }: EngineMessage,
  ruleIndex: number,
  firedAt: number,
  why: string,
  dedupeKey?: string,
): Promise<CommitResult> {
  const rule = message.rules[ruleIndex]!;
  const cancelDeadline = cancelDeadlineFor(message, rule, firedAt);
  const rules: StoredRule[] = message.rules.map((r, i) => (i === ruleIndex ? { ...r, fired_at: firedAt } : r));
  const window = rule.expire_window
    ? `It will be released at ${humanTime(cancelDeadline)} unless you check in before then.`
    : cancelDeadline > firedAt
      ? `It will be released at ${humanTime(cancelDeadline)} (its delivery time).`
      : 'It has no cancel window: it is released now.';
  const notice = armedNotice(
    { vault: Boolean(message.vault_item_id), recipient: recipientLabel },
    describeRule(rule),
    why,
    cancelDeadline,
    firedAt,
    Boolean(rule.expire_window),
    `${appOrigin(ctx.env)}/app/canary-status`,
  );
  return commitTransition(ctx, message, {
    to: 'armed',
    cause: 'rule_fired',
    detail: `Rule "${describeRule(rule)}" fired: ${why}. ${window}`,
    dedupeKey,
    // D1's timer says when the clock must wake now (the release), in the arming's own write: if the caller's sync
    // of the clock then fails, the reconciler's overdue scan finds it at the window's end. Left at the timer of
    // before (a fixed date weeks on), nothing would look at it until then (docs/decisions/release-engine.md).
    set: { armed_at: firedAt, cancel_deadline: cancelDeadline, rules, timer_due_at: cancelDeadline },
    notice: { kind: 'message_armed', ...notice },
  });
}

/**
 * scheduled | armed → releasing: into the recipient's inbox now, and one delivery job for its channel.
 * A yearly vault birthday item's next year starts in the same batch (next-birthday.ts), so it
 * exists exactly when this release does.
 */
export async function releaseMessage(
  ctx: ServiceContext,
  { message, recipientLabel }: EngineMessage,
  cause: TransitionCause,
  detail: string,
): Promise<CommitResult> {
  const now = ctx.now().getTime();
  const next = message.vault_item_id && message.rules.some((r) => r.trigger_type === 'recipient_birthday') ? nextBirthday(ctx.env.DB, message, now) : null;
  const result = await commitTransition(ctx, message, {
    to: 'releasing',
    cause,
    detail: `${detail} Released to the recipient's inbox; delivering by ${message.delivery_method}.`,
    set: { released_at: now, cancel_deadline: null },
    release: true,
    also: next?.statements,
    notice: {
      kind: 'message_released',
      ...releasedNotice({ vault: Boolean(message.vault_item_id), recipient: recipientLabel }, detail, message.delivery_method),
    },
  });
  if (result.applied && next) await syncReleaseTimer(ctx.env, next.messageId);
  return result;
}
