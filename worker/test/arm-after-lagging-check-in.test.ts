import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { MissedCheckinsEvent } from '../src/contracts/jobs';
import { armOnMissedCheckins } from '../src/domains/messages/release/arm-on-missed-checkins';
import { signedInUser } from './helpers/api';
import { createCanaryFor, servicesAt } from './helpers/canary';
import { checkInWithQueueDown } from './helpers/canary-clock';
import { createMessageFor } from './helpers/messages';

/**
 * Found by the release model (worker/test/messages-model.test.ts, seed 197872644): a message armed by a miss,
 * then disarmed by a token check-in D1 had not heard of (its projection lost), kept its first arming when the
 * next cycle's miss came — its cancel window ended at once instead of a day after that miss. The subscriber
 * read only scheduled messages before D1 had settled with the canary's object.
 */
const DAY = 86_400_000;

describe('a miss after a check-in D1 has not heard of', () => {
  it('arms the message afresh from that miss, with its whole cancel window', async () => {
    const owner = await signedInUser();
    const recipient = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 86_400 });
    const message = await createMessageFor(owner.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: 1, expire_window: 1 }],
    });
    const start = Date.parse(canary.last_check_in);
    const miss = (deadline: number): MissedCheckinsEvent => ({
      type: 'missed_checkins',
      event_id: crypto.randomUUID(),
      user_id: owner.id,
      canary_id: canary.id,
      misses: 1,
      deadline: new Date(deadline).toISOString(),
      fired_at: new Date(deadline).toISOString(),
    });
    const row = () =>
      env.DB.prepare('SELECT status, cancel_deadline FROM messages WHERE id = ?').bind(message.id).first<{ status: string; cancel_deadline: number }>();

    await armOnMissedCheckins(servicesAt(start + DAY), miss(start + DAY));
    expect(await row()).toEqual({ status: 'armed', cancel_deadline: start + 2 * DAY });

    // The owner checks in by token at the miss; the PROJECTIONS queue is down, so D1 does not hear of it.
    await checkInWithQueueDown(canary.id, start + DAY);
    expect((await row())?.status, 'D1 still shows it armed').toBe('armed');

    // The next cycle's miss: the check-in disarmed the first arming, and this miss arms it from now.
    await armOnMissedCheckins(servicesAt(start + 2 * DAY), miss(start + 2 * DAY));
    expect(await row()).toEqual({ status: 'armed', cancel_deadline: start + 3 * DAY });
  });
});
