import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import type { MissedCheckinsEvent } from '../src/contracts/jobs';
import { dispatchMissedCheckins } from '../src/wiring/missed-event-subscribers';
import { interceptD1 } from '../src/lib/intercept-d1';
import { consumeBatch } from '../src/queues/consume';
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

  it('costs one D1 read per queue delivery, however many senders it carries, and each sender with an endpoint still gets its delivery', async () => {
    const quiet = await Promise.all(Array.from({ length: 12 }, () => signedInUser()));
    const events = await Promise.all(quiet.map(async (owner) => eventFor(owner.id, (await createCanaryFor(owner.token)).id)));
    const counted = countingD1(env.DB);
    const batch = jobsBatch(events);
    const ctx = createExecutionContext();
    await consumeBatch(batch, { ...env, DB: counted.db });
    expect(counted.trips).toHaveLength(1);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toHaveLength(events.length);

    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const hook = await api('POST', '/api/developer/webhooks', {
      token: owner.token,
      json: { url: 'http://127.0.0.1:9/hook', event: 'missed_checkins', retry: false },
    });
    const withEndpoint = eventFor(owner.id, canary.id);
    const mixed = jobsBatch([...events.slice(0, 5), withEndpoint]);
    const { jobs } = await captureQueues(() => consumeBatch(mixed, env));
    expect(jobs.map((j) => j.body.type)).toEqual(['webhook']);
    const row = await env.DB.prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ? AND event_id = ?')
      .bind(hook.data.id, withEndpoint.event_id)
      .first<{ n: number }>();
    expect(row!.n).toBe(1);
  });

  it('when the delivery-wide read fails, each event reads its own and none is lost', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const events = [eventFor(owner.id, canary.id), eventFor(owner.id, canary.id)];
    let trips = 0;
    const flaky = interceptD1(env.DB, () => {
      trips++;
      if (trips === 1) throw new Error('D1 is unavailable');
    });
    const logged = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const batch = jobsBatch(events);
    const ctx = createExecutionContext();
    await consumeBatch(batch, { ...env, DB: flaky });
    logged.mockRestore();
    expect(trips).toBe(1 + events.length);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(['m0', 'm1']);
    expect(result.retryMessages).toEqual([]);
  });
});

const jobsBatch = (bodies: unknown[]) =>
  createMessageBatch(
    'afterword-jobs',
    bodies.map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body })),
  );
