import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { MissedCheckinsEvent } from '../src/contracts/jobs';
import { dispatchMissedCheckins } from '../src/domains/canary/missed-event-subscribers';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor } from './helpers/canary';
import { countingD1 } from './helpers/counting-d1';
import { captureQueues } from './helpers/messages';

const eventFor = (userId: string, canaryId: string): MissedCheckinsEvent => ({
  type: 'missed_checkins',
  event_id: crypto.randomUUID(),
  user_id: userId,
  canary_id: canaryId,
  misses: 1,
  deadline: new Date().toISOString(),
  fired_at: new Date().toISOString(),
});

describe('a missed_checkins event', () => {
  it('costs one D1 read for an owner it can change nothing for: no scheduled message, no webhook, no active guardian', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const counted = countingD1(env.DB);
    await dispatchMissedCheckins(eventFor(owner.id, canary.id), { ...env, DB: counted.db });
    expect(counted.trips).toHaveLength(1);
  });

  it('runs the subscribers the owner has something for: an active webhook endpoint gets its delivery', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const hook = await api('POST', '/api/developer/webhooks', {
      token: owner.token,
      json: { url: 'http://127.0.0.1:9/hook', event: 'missed_checkins', retry: false },
    });
    const webhookId = hook.data.id as string;
    const event = eventFor(owner.id, canary.id);
    const { jobs } = await captureQueues(() => dispatchMissedCheckins(event, env));
    expect(jobs.map((j) => j.body.type)).toEqual(['webhook']);
    const row = await env.DB.prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ? AND event_id = ?')
      .bind(webhookId, event.event_id)
      .first<{ n: number }>();
    expect(row!.n).toBe(1);
  });
});
