import type { Message, StoredRule } from '@afterword/db/schema';
import { parseIsoInstant } from '../../../contracts/messages';

/*
 * The timing rules of docs/server-rules.md "Messages, rules and release", as pure functions of a message (and
 * the sender's death flag): the engine's writers and the model-based test's reference both read them from here.
 */

export const DAY_MS = 86_400_000;
/** A birthday item arrives at 09:00 UTC on the day (the recipient's time zone is not known to us). */
export const BIRTHDAY_HOUR_UTC = 9;

/**
 * The first birthday (`MM-DD`) whose day, in UTC, is not over at `from`: at 09:00 that day, or at `from`
 * itself when the day has begun later than that. 29 February is 28 February in other years.
 */
export function birthdayOnOrAfter(monthDay: string, from: number): number {
  const [month, day] = monthDay.split('-').map(Number) as [number, number];
  for (let year = new Date(from).getUTCFullYear(); ; year++) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    const dayStart = Date.UTC(year, month - 1, month === 2 && day === 29 && !leap ? 28 : day);
    if (dayStart + DAY_MS > from) return Math.max(dayStart + BIRTHDAY_HOUR_UTC * 3_600_000, from);
  }
}

/**
 * When a time-based rule fires, or null (missed_checkins fires from canary events; death unknown).
 * `notBefore` is the message's deliver_at: a birthday counts from the later of the death and it (a
 * yearly item's next message starts the day after the last birthday).
 */
export function ruleDueAt(rule: StoredRule, deathConfirmedAt: Date | null, notBefore = 0): number | null {
  if (rule.trigger_type === 'fixed_date') return parseIsoInstant(rule.trigger_value)?.getTime() ?? null;
  if (rule.trigger_type === 'delay_after_death') return deathConfirmedAt ? deathConfirmedAt.getTime() + Number(rule.trigger_value) * DAY_MS : null;
  if (rule.trigger_type === 'recipient_birthday')
    return deathConfirmedAt ? birthdayOnOrAfter(rule.trigger_value, Math.max(deathConfirmedAt.getTime(), notBefore)) : null;
  return null;
}

/** Rules that wait for a confirmed death (the ladder's summary counts what they would release). */
export const DEATH_RULE_TYPES = ['delay_after_death', 'recipient_birthday'] as const;

/** A time-based rule fires once: after it armed the message it is spent (a check-in may still disarm it). */
export const isSpent = (rule: StoredRule) => rule.trigger_type !== 'missed_checkins' && rule.fired_at != null;

/** The first time-based rule that is due at `now` and not spent, with its index. */
export function dueTimeRule(
  message: Pick<Message, 'rules' | 'deliver_at'>,
  deathConfirmedAt: Date | null,
  now: number,
): { index: number; dueAt: number } | null {
  let best: { index: number; dueAt: number } | null = null;
  message.rules.forEach((rule, index) => {
    if (isSpent(rule)) return;
    const dueAt = ruleDueAt(rule, deathConfirmedAt, message.deliver_at.getTime());
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

/**
 * `nextWakeAt(message) != null` as SQL over a message `m` and its sender `u` (their death flag), for an open
 * message: armed with a window's end; scheduled with no rules (its deliver_at); or with a time-based rule not spent
 * — a fixed date, or a death rule once the death is confirmed. The reconciler finds with it the open messages
 * whose clock is missing, without reading them all: most wait for a canary event or a death and need none.
 * worker/test/release-reconciler-scale.test.ts holds it to nextWakeAt.
 */
export const needsClockSql = (m: string, u: string) => `(
  (${m}.status = 'armed' AND ${m}.cancel_deadline IS NOT NULL)
  OR (${m}.status = 'scheduled' AND json_array_length(${m}.rules) = 0)
  OR (${m}.status = 'scheduled' AND EXISTS (
    SELECT 1 FROM json_each(${m}.rules) r
    WHERE json_extract(r.value, '$.fired_at') IS NULL
      AND (json_extract(r.value, '$.trigger_type') = 'fixed_date'
        OR (json_extract(r.value, '$.trigger_type') IN (${DEATH_RULE_TYPES.map((t) => `'${t}'`).join(', ')}) AND ${u}.death_confirmed_at IS NOT NULL)))))`;

/** When the message next needs its clock: null when only an event (or nothing) can move it. */
export function nextWakeAt(message: Pick<Message, 'status' | 'rules' | 'deliver_at' | 'cancel_deadline'>, deathConfirmedAt: Date | null): number | null {
  if (message.status === 'armed') return message.cancel_deadline?.getTime() ?? null;
  if (message.status !== 'scheduled') return null;
  if (!message.rules.length) return message.deliver_at.getTime();
  let next: number | null = null;
  for (const rule of message.rules) {
    if (isSpent(rule)) continue;
    const dueAt = ruleDueAt(rule, deathConfirmedAt, message.deliver_at.getTime());
    if (dueAt != null && (next == null || dueAt < next)) next = dueAt;
  }
  return next;
}

export const isOpen = (status: Message['status']) => status === 'scheduled' || status === 'armed';
