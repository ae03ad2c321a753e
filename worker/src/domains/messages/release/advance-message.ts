import { RELEASE_REASONS } from '../notices/message-notice-texts';
import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import type { ServiceContext } from '../../../env';
import { loadEngineMessage } from './load-message';
import { dueTimeRule, isOpen, nextWakeAt } from './schedule';
import { armMessage, releaseMessage } from './transitions';
import { settleCheckInsOf } from '../../canary/settle-check-ins';
import { humanTime } from '../../../lib/human-time';

/** Enough for any real path (fire → arm → release); a bound so a bug cannot spin. */
const MAX_STEPS = 6;

/**
 * Brings one message up to `now` for everything time decides: releases a rule-less message at
 * deliver_at, arms on a due fixed date or delay after death, releases an armed message at the end of its
 * cancel window. Safe to run any number of times, from its ReleaseClock (alarm or sync) or directly
 * (tests) (each step is a compare-and-set). Saves and returns when the message next needs its clock.
 * A message whose sender withdrew the messages consent is paused: it does nothing and needs no clock.
 */
export async function advanceMessage(ctx: ServiceContext, messageId: string, by: 'alarm' | 'direct'): Promise<{ nextWakeAt: Date | null }> {
  let settled = false;
  for (let step = 0; step < MAX_STEPS; step++) {
    const loaded = await loadEngineMessage(ctx, messageId);
    if (!loaded || !isOpen(loaded.message.status)) return { nextWakeAt: null };
    const { message, deathConfirmedAt } = loaded;
    const now = ctx.now().getTime();
    if (loaded.paused) {
      // Withdrawn messages consent: no step and no alarm; allowing it again re-syncs this clock.
      if (by === 'alarm' && message.timer_due_at) await ctx.db.update(schema.messages).set({ timer_due_at: null }).where(eq(schema.messages.id, messageId));
      return { nextWakeAt: null };
    }

    let moved = false;
    if (message.status === 'armed' && message.cancel_deadline && message.cancel_deadline.getTime() <= now) {
      // The canaries' objects hold the check-ins; D1 may not have the latest yet. Make it agree first
      // (a check-in inside the window disarms the message), then look again (docs/decisions/canary-engine.md).
      // Armed with no window, nothing can disarm it: there is nothing to wait for.
      const windowed = message.cancel_deadline.getTime() > (message.armed_at?.getTime() ?? 0);
      if (windowed && !settled) {
        await settleCheckInsOf(ctx, message.sender_id, message.armed_at?.getTime() ?? 0);
        settled = true;
        continue;
      }
      const reason = windowed ? RELEASE_REASONS.windowEnded : RELEASE_REASONS.noWindow;
      moved = (await releaseMessage(ctx, loaded, 'window_ended', reason)).applied;
    } else if (message.status === 'armed' && !settled && dueTimeRule(message, deathConfirmedAt, now)) {
      // Armed, its window still open, and another rule already due: a check-in D1 has not heard of yet
      // would have disarmed it, and that rule would fire now. Ask the canaries' objects before keeping it armed.
      await settleCheckInsOf(ctx, message.sender_id, message.armed_at?.getTime() ?? 0);
      settled = true;
      continue;
    } else if (message.status === 'scheduled' && !message.rules.length && message.deliver_at.getTime() <= now) {
      moved = (await releaseMessage(ctx, loaded, 'deliver_at', `Its delivery time ${humanTime(message.deliver_at.getTime())} came (no rules).`)).applied;
    } else if (message.status === 'scheduled') {
      const due = dueTimeRule(message, deathConfirmedAt, now);
      if (due) {
        const rule = message.rules[due.index]!;
        const why =
          rule.trigger_type === 'fixed_date'
            ? `${humanTime(due.dueAt)} came`
            : rule.trigger_type === 'recipient_birthday'
              ? `the birthday came (${humanTime(due.dueAt)}) after death confirmed at ${humanTime(deathConfirmedAt!.getTime())}`
              : `death confirmed at ${humanTime(deathConfirmedAt!.getTime())}`;
        // Applied or not (a racing writer won), re-read and look again.
        await armMessage(ctx, loaded, due.index, now, why, `rule:${due.index}:${due.dueAt}`);
        moved = true;
      }
    }
    if (moved) continue;

    const next = nextWakeAt(message, deathConfirmedAt);
    const nextDate = next == null ? null : new Date(next);
    // Only the message's ReleaseClock arms an alarm for `next`, so only it records the timer.
    if (by === 'alarm' && (message.timer_due_at?.getTime() ?? null) !== next) {
      await ctx.db.update(schema.messages).set({ timer_due_at: nextDate }).where(eq(schema.messages.id, messageId));
    }
    return { nextWakeAt: nextDate };
  }
  return { nextWakeAt: new Date(ctx.now().getTime() + 1000) };
}
