import type { Message, StoredRule } from '@afterword/db/schema';
import { parseIsoInstant } from '../../../contracts/messages';

/*
 * The timing rules of DESIGN section 3, as pure functions of a message (and the sender's death flag):
 * the engine's writers and the model-based test's reference both read them from here.
 */

export const DAY_MS = 86_400_000;

/** When a time-based rule fires, or null (missed_checkins fires from canary events; death unknown). */
export function ruleDueAt(rule: StoredRule, deathConfirmedAt: Date | null): number | null {
  if (rule.trigger_type === 'fixed_date') return parseIsoInstant(rule.trigger_value)?.getTime() ?? null;
  if (rule.trigger_type === 'delay_after_death') return deathConfirmedAt ? deathConfirmedAt.getTime() + Number(rule.trigger_value) * DAY_MS : null;
  return null;
}

/** A time-based rule fires once: after it armed the message it is spent (a check-in may still disarm it). */
export const isSpent = (rule: StoredRule) => rule.trigger_type !== 'missed_checkins' && rule.fired_at != null;

/** The first time-based rule that is due at `now` and not spent, with its index. */
export function dueTimeRule(message: Pick<Message, 'rules'>, deathConfirmedAt: Date | null, now: number): { index: number; dueAt: number } | null {
  let best: { index: number; dueAt: number } | null = null;
  message.rules.forEach((rule, index) => {
    if (isSpent(rule)) return;
    const dueAt = ruleDueAt(rule, deathConfirmedAt);
    if (dueAt != null && dueAt <= now && (!best || dueAt < best.dueAt)) best = { index, dueAt };
  });
  return best;
}

/**
 * Arming at `firedAt` opens the cancel window: it ends `expire_window` days after the later of the firing
 * and `deliver_at` (a message is never released before deliver_at). 0 or no window = at once.
 */
export function cancelDeadlineFor(message: Pick<Message, 'deliver_at'>, rule: StoredRule, firedAt: number): number {
  return Math.max(firedAt, message.deliver_at.getTime()) + (rule.expire_window ?? 0) * DAY_MS;
}

/** When the message next needs its clock: null when only an event (or nothing) can move it. */
export function nextWakeAt(message: Pick<Message, 'status' | 'rules' | 'deliver_at' | 'cancel_deadline'>, deathConfirmedAt: Date | null): number | null {
  if (message.status === 'armed') return message.cancel_deadline?.getTime() ?? null;
  if (message.status !== 'scheduled') return null;
  if (!message.rules.length) return message.deliver_at.getTime();
  let next: number | null = null;
  for (const rule of message.rules) {
    if (isSpent(rule)) continue;
    const dueAt = ruleDueAt(rule, deathConfirmedAt);
    if (dueAt != null && (next == null || dueAt < next)) next = dueAt;
  }
  return next;
}

export const isOpen = (status: Message['status']) => status === 'scheduled' || status === 'armed';
