import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { CanaryNoticeJob, MissedCheckinsEvent } from '../src/contracts/jobs';
import { advanceCanary } from '../src/domains/canary/advance-canary';
import { clockOf } from '../src/domains/canary/canary-timer';
import { createCanary } from '../src/domains/canary/create-canary';
import { createMessage } from '../src/domains/messages/create-message';
import { armOnMissedCheckins } from '../src/domains/messages/release/arm-on-missed-checkins';
import { ZCreateMessageInput } from '../src/contracts/messages';
import { signedInUser } from './helpers/api';
import { captureJobs, servicesAt } from './helpers/canary';
import { captureQueues, messageRow } from './helpers/messages';

/**
 * Found by the system simulation (worker/test/system-simulation.test.ts, seed 2): a miss that counts only
 * a grace period after a re-warning reached the owner armed its messages with a cancel window dated from
 * when the miss was recorded, not from when it counted — the window came out shorter by the wait for the
 * warning, and a window shorter than that wait was skipped altogether (released the moment the miss counted).
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('a miss that waited for a warning', () => {
  it('arms its messages with the whole cancel window from when the miss counted', async () => {
    const sender = await signedInUser();
    const recipient = await signedInUser();
    const user = (await env.DB.prepare('SELECT * FROM users WHERE id = ?').bind(sender.id).first())!;
    const start = Date.now() + DAY;
    const canary = await createCanary(servicesAt(start), user as never, { interval_seconds: DAY / 1000, name: 'daily' });
    const input = ZCreateMessageInput.parse({
      recipient_user_id: recipient.id,
      content: 'window',
      delivery_method: 'email',
      deliver_at: new Date(start).toISOString(),
      rules: [{ trigger_type: 'missed_checkins', trigger_value: 1, expire_window: 1 }],
      consent: true,
    });
    const message = (await captureQueues(() => createMessage(servicesAt(start), user as never, input))).result;
    const deadline = start + DAY;
    const grace = DAY / 5;

    // The grace reminder goes out and reaches nobody; at the deadline the owner is re-warned instead.
    await captureJobs(() => advanceCanary(servicesAt(deadline - grace), canary.id, 'alarm'));
    const atDeadline = await captureJobs(() => advanceCanary(servicesAt(deadline), canary.id, 'alarm'));
    const rewarn = (atDeadline.sent as CanaryNoticeJob[]).find((j) => j.type === 'canary_notice' && j.kind === 'late_rewarn')!;
    // The re-warning reaches the owner three hours later (an email outage): the miss counts a grace period after that.
    const delivered = deadline + 3 * HOUR;
    await clockOf(env, canary.id).warningDelivered(canary.id, rewarn.transition_id, delivered, 'email', delivered);
    const countsAt = delivered + grace;
    const counted = await captureJobs(() => advanceCanary(servicesAt(countsAt), canary.id, 'alarm'));
    const event = (counted.sent as MissedCheckinsEvent[]).find((j) => j.type === 'missed_checkins')!;
    expect(Date.parse(event.fired_at)).toBe(countsAt);

    await captureQueues(() => armOnMissedCheckins(servicesAt(countsAt), event));
    const row = await messageRow(message.id);
    expect({ status: row!.status, cancel_deadline: row!.cancel_deadline }).toEqual({ status: 'armed', cancel_deadline: countsAt + DAY });
  });
});
