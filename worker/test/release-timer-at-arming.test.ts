import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../src/env';
import { reconcileReleases } from '../src/domains/messages/reconcile-releases';
import { loadEngineMessage } from '../src/domains/messages/release/load-message';
import { setDeathConfirmed } from '../src/domains/messages/release/set-death-confirmed';
import { armMessage } from '../src/domains/messages/release/transitions';
import { createServiceContext } from '../src/wiring/service-context';
import { signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';
import { captureQueues, createMessageFor, messageRow } from './helpers/messages';

const DAY = 86_400_000;

/**
 * A message armed by a missed check-in whose clock could not be told (the sync after the arming failed): D1's
 * timer must say when it is to be released, or the reconciler, which reads that timer, waits for the one it
 * held before. Found by the system simulation (seed 11, docs/decisions/simulation.md "What it found", stop 52):
 * a message armed with no cancel window, its clock's sync lost to a D1 error, waited 39 days for its fixed date.
 */
/** An owner's message with `rule` (first) and a fixed date 30 days on, whose clock is set for that date. */
async function messageWaitingForAFixedDateAnd(now: number, rule: Record<string, unknown>) {
  const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
  const fixedDate = new Date(now + 30 * DAY).toISOString();
  const created = await createMessageFor(owner.token, {
    recipient_user_id: recipient.id,
    rules: [rule, { trigger_type: 'fixed_date', trigger_value: fixedDate, expire_window: 1 }],
  });
  return { owner, created, fixedDate };
}

describe('a message armed while its release clock cannot be reached', () => {
  it('is released by the reconciler at the end of its window, not at the later fixed date its timer held', async () => {
    const now = Date.now();
    const { created, fixedDate } = await messageWaitingForAFixedDateAnd(now, { trigger_type: 'missed_checkins', trigger_value: 1, expire_window: 0 });
    // Its clock wakes at the fixed date: the missed check-in rule waits for a canary event.
    expect((await messageRow(created.id))!.timer_due_at).toBe(Date.parse(fixedDate));

    // A missed check-in arms it (a minute ago); the sync of its clock that follows never happens.
    const armedAt = now - 60_000;
    const ctx = servicesAt(armedAt);
    const { applied } = await armMessage(ctx, (await loadEngineMessage(ctx, created.id))!, 0, armedAt, '1 missed check-in in a row');
    expect(applied).toBe(true);
    const armed = await messageRow(created.id);
    expect(armed!.status).toBe('armed');
    expect(armed!.timer_due_at).toBe(armed!.cancel_deadline);
    expect(armed!.timer_due_at).toBeLessThan(Date.parse(fixedDate));

    // The reconciler's next run finds the clock overdue and brings it up to date: the message is released (the
    // clock's object reads the real clock, past the window's end by then).
    await captureQueues(() => reconcileReleases(servicesAt(Date.now() + 60_000), { lostEvents: false, missingTimers: false }));
    expect((await messageRow(created.id))!.status).toBe('releasing');
  });
});

/** The Worker's bindings with every message's release clock out of reach. */
const clocksOutOfReach = {
  ...env,
  RELEASE_CLOCK: {
    idFromName: env.RELEASE_CLOCK.idFromName.bind(env.RELEASE_CLOCK),
    get: () => {
      throw new Error('the release object is out of reach');
    },
  },
} as unknown as Bindings;

describe("a message whose sender's death was confirmed while its release clock could not be reached", () => {
  it('has its timer marked unknown, and the reconciler releases it then, not at the later fixed date its timer held', async () => {
    const now = Date.now();
    const { owner, created, fixedDate } = await messageWaitingForAFixedDateAnd(now, { trigger_type: 'delay_after_death', trigger_value: 0, expire_window: 0 });
    expect((await messageRow(created.id))!.timer_due_at).toBe(Date.parse(fixedDate));

    // The death is confirmed a minute ago; the sync of the message's clock that follows fails.
    await env.DB.prepare('UPDATE users SET death_confirmed_at = ? WHERE id = ?')
      .bind(now - 60_000, owner.id)
      .run();
    await setDeathConfirmed(
      createServiceContext(clocksOutOfReach, () => new Date(now)),
      owner.id,
    );
    expect((await messageRow(created.id))!.timer_due_at).toBeNull();

    // The reconciler's scan of open messages that need a clock and have none brings it up to date.
    await captureQueues(() => reconcileReleases(servicesAt(Date.now() + 60_000), { lostEvents: false, missingTimers: true }));
    expect((await messageRow(created.id))!.status).toBe('releasing');
  });
});
