import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { dispatchMissedCheckins } from '../src/wiring/missed-event-subscribers';
import type { MissedCheckinsEvent } from '../src/contracts/jobs';
import { sendOwnerNotice } from '../src/domains/owner-notices/send-owner-notice';
import { deliverWebhook } from '../src/domains/webhooks/deliver';
import { fanOutMissedCheckins } from '../src/domains/webhooks/fan-out';
import { reconcileWebhooks } from '../src/domains/webhooks/reconcile';
import { MAX_WEBHOOK_ATTEMPTS, WEBHOOK_RETRY_DELAYS_SECONDS } from '../src/domains/webhooks/retry-policy';
import { decryptWebhookSecret, encryptWebhookSecret } from '../src/domains/webhooks/secret';
import { signWebhook, webhookHeaders } from '../src/domains/webhooks/signature';
import { createServiceContext } from '../src/wiring/service-context';
import { fromBase64Url, toBase64Url } from '../src/lib/encoding';
import { consumeBatch } from '../src/queues/consume';
import { api } from './helpers/api';
import { servicesAt } from './helpers/canary';
import { captureQueues, scriptedChannels } from './helpers/messages';
import { endpoint, received, receiver, script, webhookJobs } from './helpers/webhooks';

const MIN = 60_000;
const HOUR = 60 * MIN;

type Env = typeof env;
const withEnv = (overrides: Record<string, string>) => ({ ...env, ...overrides }) as unknown as Env;

function missedEvent(userId: string, at: number, misses = 1): MissedCheckinsEvent {
  return {
    type: 'missed_checkins',
    event_id: crypto.randomUUID(),
    user_id: userId,
    canary_id: crypto.randomUUID(),
    misses,
    deadline: new Date(at - 1000).toISOString(),
    fired_at: new Date(at).toISOString(),
  };
}

const deliveryRow = (id: string) => env.DB.prepare('SELECT * FROM webhook_deliveries WHERE id = ?').bind(id).first<Record<string, any>>();
const webhookRow = (id: string) => env.DB.prepare('SELECT * FROM webhooks WHERE id = ?').bind(id).first<Record<string, any>>();

/** Fans an event out at `at` and returns the one delivery job it queued. */
async function fanOutOne(userId: string, at: number) {
  const { jobs } = await captureQueues(() => fanOutMissedCheckins(servicesAt(at), missedEvent(userId, at)));
  const [job, ...rest] = webhookJobs(jobs);
  expect(rest).toEqual([]);
  return job!.body.delivery_id as string;
}

describe('Standard Webhooks signing', () => {
  it('reproduces the published test vector exactly', async () => {
    const sig = await signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(sig).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(await webhookHeaders('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toEqual({
      'content-type': 'application/json',
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('the library agrees on the vector, and refuses a tampered body', async () => {
    const headers = { 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) };
    const body = '{"test": 2432232314}';
    const signature = await signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', headers['webhook-id'], Number(headers['webhook-timestamp']), body);
    const verify = async (b: string) =>
      (await (
        await fetch(`${receiver.base}/__verify`, {
          method: 'POST',
          body: JSON.stringify({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', headers: { ...headers, 'webhook-signature': signature }, body: b }),
        })
      ).json()) as { ok: boolean; error?: string };
    expect(await verify(body)).toEqual({ ok: true, error: null });
    expect(await verify('{"test": 2432232315}')).toEqual({ ok: false, error: 'No matching signature found' });
  });

  it('encrypts secrets at rest with AES-GCM bound to the webhook id and the configured key', async () => {
    const id = crypto.randomUUID();
    const sealed = await encryptWebhookSecret(env, id, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(sealed).not.toContain('MfKQ9r8G');
    expect(await encryptWebhookSecret(env, id, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).not.toBe(sealed); // fresh IV
    expect(await decryptWebhookSecret(env, id, sealed)).toBe('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(await decryptWebhookSecret(env, crypto.randomUUID(), sealed)).toBeNull();
    expect(await decryptWebhookSecret(withEnv({ WEBHOOK_SECRET_KEY: 'another key' }), id, sealed)).toBeNull();
    // Tampered: one bit of the ciphertext flipped. (Re-spelling its last base64url characters did not always
    // change a byte: the last character carries bits the decoder ignores, so that test passed by chance.)
    const [v, iv, ct] = sealed.split('.');
    const tampered = fromBase64Url(ct!);
    tampered[0]! ^= 0x01;
    expect(await decryptWebhookSecret(env, id, [v, iv, toBase64Url(tampered)].join('.'))).toBeNull();
    await expect(encryptWebhookSecret(withEnv({ APP_ENV: 'production' }), id, 'whsec_x')).rejects.toThrow('WEBHOOK_SECRET_KEY is not configured');
  });
});

describe('missed_checkins → signed deliveries to a real receiver', () => {
  it('the registered subscriber queues one delivery per active endpoint; the consumer sends it; standardwebhooks verifies it', async () => {
    const { owner, hook } = await endpoint('e2e');
    const second = await api('POST', '/api/developer/webhooks', {
      token: owner.token,
      json: { url: `${receiver.base}/hook/e2e-2`, event: 'missed_checkins', retry: false },
    });
    await script('e2e-2', second.data.hmac_secret);
    const stranger = await endpoint('e2e-stranger');
    const now = Date.now();
    const event = missedEvent(owner.id, now, 2);

    const { jobs } = await captureQueues(() => dispatchMissedCheckins(event, env));
    const queued = webhookJobs(jobs);
    expect(queued).toHaveLength(2);

    // The real queue consumer, with the jobs as the DELIVERIES batch.
    const batch = createMessageBatch(
      'afterword-deliveries',
      queued.map((j, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body: j.body })),
    );
    const ctx = createExecutionContext();
    await consumeBatch(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(['m0', 'm1']);

    for (const [name, secret] of [
      ['e2e', hook.hmac_secret],
      ['e2e-2', second.data.hmac_secret],
    ] as const) {
      const [got, ...more] = await received(name);
      expect(more).toEqual([]);
      expect(got!.verified, got!.verifyError ?? '').toBe(true);
      expect(got!.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9]{24}$/);
      expect(Number(got!.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(Math.floor(now / 1000) - 1);
      expect(got!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(got!.headers['content-type']).toBe('application/json');
      expect(JSON.parse(got!.body)).toEqual({
        type: 'missed_checkins',
        timestamp: event.fired_at,
        data: { user_id: owner.id, event: 'missed_checkins', canary_id: event.canary_id, misses: 2, deadline: event.deadline },
      });
      // The receiver's copy of the library refuses the same request with one byte changed.
      const tampered = got!.body.replace('"misses":2', '"misses":3');
      const check = (await (
        await fetch(`${receiver.base}/__verify`, { method: 'POST', body: JSON.stringify({ secret, headers: got!.headers, body: tampered }) })
      ).json()) as { ok: boolean; error: string };
      expect(check).toEqual({ ok: false, error: 'No matching signature found' });
    }
    expect(await received('e2e-stranger')).toEqual([]);
    void stranger;
    const attempts = await api('GET', `/api/developer/webhooks/${hook.id}/attempts`, { token: owner.token });
    expect(attempts.data).toEqual([
      expect.objectContaining({ attempt: 1, status_code: 200, success: true, event: 'missed_checkins', error: null, origin: 'event' }),
    ]);
  });

  it('is idempotent on event_id: a redelivered event adds no delivery and sends nothing more', async () => {
    const { owner } = await endpoint('idem');
    const now = Date.now();
    const event = missedEvent(owner.id, now);
    const first = await captureQueues(() => fanOutMissedCheckins(servicesAt(now), event));
    expect(first.result).toBe(1);
    const again = await captureQueues(() => fanOutMissedCheckins(servicesAt(now + 1000), event));
    expect(again.result).toBe(0);
    expect(webhookJobs(again.jobs)).toEqual([]);
    const id = webhookJobs(first.jobs)[0]!.body.delivery_id as string;
    await captureQueues(() => deliverWebhook(servicesAt(now), id));
    // A duplicated job finds the delivery done.
    const dup = await captureQueues(() => deliverWebhook(servicesAt(now + 2000), id));
    expect(dup.result).toEqual({ outcome: 'none' });
    expect(dup.jobs).toEqual([]);
    expect(await received('idem')).toHaveLength(1);
  });

  it('marks events of an endpoint created by a sandbox key with sandbox: true', async () => {
    const { owner, hook } = await endpoint('sandboxed');
    await env.DB.prepare('UPDATE webhooks SET sandbox = 1 WHERE id = ?').bind(hook.id).run();
    const now = Date.now();
    await captureQueues(async () => deliverWebhook(servicesAt(now), await fanOutOne(owner.id, now)));
    const [got] = await received('sandboxed');
    expect(JSON.parse(got!.body).data.sandbox).toBe(true);
    expect(got!.verified).toBe(true);
  });
});

describe('retries (injected clock, consumer driven by the test)', () => {
  it(`follows the Standard Webhooks schedule with the same webhook-id, then fails after ${MAX_WEBHOOK_ATTEMPTS} attempts`, async () => {
    const { owner, hook } = await endpoint('schedule', { steps: [{ status: 500 }] });
    let t = Date.now();
    const id = await fanOutOne(owner.id, t);
    const delays: (number | undefined)[] = [];
    for (let n = 1; n <= MAX_WEBHOOK_ATTEMPTS; n++) {
      if (n > 1) {
        // A second before it is due: nothing is sent, the job waits again for the rest.
        const early = await captureQueues(() => deliverWebhook(servicesAt(t - 1000), id));
        expect(early.result).toEqual({ outcome: 'none' });
        expect(webhookJobs(early.jobs).map((j) => j.delaySeconds)).toEqual([1]);
      }
      const { result, jobs } = await captureQueues(() => deliverWebhook(servicesAt(t), id));
      expect(result).toMatchObject({ outcome: n < MAX_WEBHOOK_ATTEMPTS ? 'retrying' : 'failed', attempt: { attempt: n, status_code: 500 } });
      const next = webhookJobs(jobs);
      delays.push(next[0]?.delaySeconds);
      if (n < MAX_WEBHOOK_ATTEMPTS) t += next[0]!.delaySeconds! * 1000;
      else expect(next).toEqual([]);
    }
    expect(delays).toEqual([...WEBHOOK_RETRY_DELAYS_SECONDS, undefined]);
    expect(WEBHOOK_RETRY_DELAYS_SECONDS).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 36_000]);
    expect((await deliveryRow(id))!).toMatchObject({ status: 'failed', attempts: MAX_WEBHOOK_ATTEMPTS, last_status_code: 500, last_error: 'HTTP 500' });

    const got = await received('schedule');
    expect(got).toHaveLength(MAX_WEBHOOK_ATTEMPTS);
    expect(new Set(got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    expect(new Set(got.map((g) => g.body)).size).toBe(1);
    expect(got.every((g) => g.signatureMatches)).toBe(true);
    // Each attempt signs with its own time: 0, 5 s, 5 min 5 s, … after the first.
    const offsets = got.map((g) => Number(g.headers['webhook-timestamp']) - Number(got[0]!.headers['webhook-timestamp']));
    let sum = 0;
    expect(offsets).toEqual([0, ...WEBHOOK_RETRY_DELAYS_SECONDS.map((d) => (sum += d))]);

    const log = await api('GET', `/api/developer/webhooks/${hook.id}/attempts`, { token: owner.token });
    expect(log.data.map((a: { attempt: number }) => a.attempt)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(new Set(log.data.map((a: { message_id: string }) => a.message_id))).toEqual(new Set([got[0]!.headers['webhook-id']]));
    expect((await webhookRow(hook.id))!.status).toBe('active');
  });

  it('retries 503 with Retry-After (honoured when longer), 429, timeouts and connection errors, then delivers', async () => {
    const { owner } = await endpoint('flaky', {
      steps: [{ status: 503, headers: { 'retry-after': '120' } }, { status: 429 }, { hang: true }, { status: 200 }],
    });
    let t = Date.now();
    const id = await fanOutOne(owner.id, t);
    const step = async (opts = {}) => {
      const r = await captureQueues(() => deliverWebhook(servicesAt(t), id, opts));
      const d = webhookJobs(r.jobs)[0]?.delaySeconds;
      if (d) t += d * 1000;
      return { ...r.result, delay: d };
    };
    expect(await step()).toMatchObject({ outcome: 'retrying', delay: 120, attempt: { status_code: 503 } });
    expect(await step()).toMatchObject({ outcome: 'retrying', delay: 300, attempt: { status_code: 429, error: 'HTTP 429' } });
    expect(await step({ timeoutMs: 300 })).toMatchObject({ outcome: 'retrying', delay: 1800, attempt: { status_code: null, error: 'timed out after 300 ms' } });
    expect(await step()).toMatchObject({ outcome: 'delivered', delay: undefined, attempt: { attempt: 4, status_code: 200, success: true } });
    expect(new Set((await received('flaky')).map((g) => g.headers['webhook-id'])).size).toBe(1);

    // Nothing listening on the port: a connection error, retried. (workerd also prints its own
    // "uncaught exception … Network connection lost" for a refused connection; the sender catches it.)
    const closed = await endpoint('closed', { url: 'http://127.0.0.1:9/hook' });
    const cid = await fanOutOne(closed.owner.id, t);
    const r = await captureQueues(() => deliverWebhook(servicesAt(t), cid));
    expect(r.result).toMatchObject({ outcome: 'retrying', attempt: { status_code: null, error: expect.stringMatching(/^connection failed/) } });
    expect(webhookJobs(r.jobs).map((j) => j.delaySeconds)).toEqual([5]);
  });

  it('without retry, one attempt only', async () => {
    const { owner, hook } = await endpoint('once', { retry: false, steps: [{ status: 503 }] });
    const t = Date.now();
    const id = await fanOutOne(owner.id, t);
    const r = await captureQueues(() => deliverWebhook(servicesAt(t), id));
    expect(r.result).toMatchObject({ outcome: 'failed', attempt: { attempt: 1, status_code: 503 } });
    expect(webhookJobs(r.jobs)).toEqual([]);
    expect((await deliveryRow(id))!.status).toBe('failed');
    // The reconciler leaves a failed delivery alone.
    const swept = await captureQueues(() => reconcileWebhooks(servicesAt(t + HOUR)));
    expect(webhookJobs(swept.jobs).map((j) => j.body.delivery_id)).not.toContain(id);
    expect(await received('once')).toHaveLength(1);
    void hook;
  });

  it('a 4xx other than 410 and 429 fails at once, even with retry', async () => {
    const { owner } = await endpoint('bad-request', { steps: [{ status: 400 }] });
    const t = Date.now();
    const r = await captureQueues(async () => deliverWebhook(servicesAt(t), await fanOutOne(owner.id, t)));
    expect(r.result).toMatchObject({ outcome: 'failed', attempt: { status_code: 400 } });
    expect(webhookJobs(r.jobs)).toEqual([]);
  });
});

describe('410 Gone', () => {
  it('disables the endpoint, tells the owner once (canary_events alert), and later events skip it; a good test event turns it back on', async () => {
    const { owner, hook } = await endpoint('gone', { steps: [{ status: 410 }, { status: 200 }] });
    const t = Date.now();
    const first = await fanOutOne(owner.id, t);
    const r = await captureQueues(() => deliverWebhook(servicesAt(t), first));
    expect(r.result).toMatchObject({ outcome: 'failed', attempt: { status_code: 410 } });
    expect(webhookJobs(r.jobs)).toEqual([]);
    const notices = r.jobs.filter((j) => j.body.type === 'owner_notice');
    expect(notices).toHaveLength(1);

    const row = (await webhookRow(hook.id))!;
    expect(row.status).toBe('disabled');
    expect(row.disabled_reason).toMatch(/410 Gone/);
    const list = await api('GET', '/api/developer/webhooks', { token: owner.token });
    expect(list.data[0]).toMatchObject({ status: 'disabled', disabled_reason: expect.stringMatching(/410/) });

    const notice = (await env.DB.prepare('SELECT * FROM owner_notices WHERE id = ?').bind(notices[0]!.body.notice_id).first<Record<string, any>>())!;
    expect(notice).toMatchObject({ user_id: owner.id, kind: 'webhook_disabled', status: 'pending', subject: 'A webhook endpoint was disabled' });
    expect(notice.text).toContain(hook.url);
    expect(notice.link).toMatch(/\/app\/developer$/);
    // The owner's canary_events alert governs it: off → skipped, not sent.
    await api('POST', '/api/notify/preferences', {
      token: owner.token,
      json: { methods: ['email'], quiet_hours: { start: '00:00', end: '00:00' }, alerts: { vaults: true, messages: true, canary_events: false } },
    });
    const channels = scriptedChannels([{ ok: true }]);
    expect(await sendOwnerNotice(servicesAt(t), notice.id, channels)).toBe('skipped');
    expect(channels.calls).toEqual([]);

    // A later event adds nothing for the disabled endpoint.
    const later = await captureQueues(() => fanOutMissedCheckins(servicesAt(t + MIN), missedEvent(owner.id, t + MIN)));
    expect(later.result).toBe(0);
    expect(await received('gone')).toHaveLength(1);

    // 'Send test event' still goes out; its 2xx turns the endpoint back on (no second notice on the way).
    const test = await api('POST', `/api/developer/webhooks/${hook.id}/test`, { token: owner.token });
    expect(test.data).toMatchObject({ delivered: true, attempt: { origin: 'test' } });
    expect((await webhookRow(hook.id))!).toMatchObject({ status: 'active', disabled_reason: null });
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM owner_notices WHERE user_id = ? AND kind = 'webhook_disabled'").bind(owner.id).first<{ n: number }>())!
        .n,
    ).toBe(1);
  });

  it('a retry queued before the endpoint was disabled is dropped without sending', async () => {
    const { owner, hook } = await endpoint('gone-later', { steps: [{ status: 500 }] });
    const t = Date.now();
    const id = await fanOutOne(owner.id, t);
    await captureQueues(() => deliverWebhook(servicesAt(t), id));
    await env.DB.prepare("UPDATE webhooks SET status = 'disabled', disabled_reason = 'test' WHERE id = ?").bind(hook.id).run();
    const r = await captureQueues(() => deliverWebhook(servicesAt(t + 5000), id));
    expect(r.result).toEqual({ outcome: 'failed', attempt: null });
    expect(r.jobs).toEqual([]);
    expect(await received('gone-later')).toHaveLength(1);
  });
});

describe('SSRF at send time and redirects', () => {
  it('a 3xx is a failure and is not followed, even with retry', async () => {
    const target = await endpoint('redirect-target');
    const { owner } = await endpoint('redirect', { steps: [{ status: 302, headers: { location: `${receiver.base}/hook/redirect-target` } }] });
    const t = Date.now();
    const r = await captureQueues(async () => deliverWebhook(servicesAt(t), await fanOutOne(owner.id, t)));
    expect(r.result).toMatchObject({
      outcome: 'failed',
      attempt: { status_code: 302, error: `redirect (302 to ${receiver.base}/hook/redirect-target) not followed` },
    });
    expect(webhookJobs(r.jobs)).toEqual([]);
    expect(await received('redirect')).toHaveLength(1);
    expect(await received('redirect-target')).toEqual([]);
    void target;
  });

  it('checks the URL again before sending: a loopback endpoint is not called in production mode', async () => {
    const { owner, hook } = await endpoint('prod-send');
    const t = Date.now();
    const id = await fanOutOne(owner.id, t);
    const production = createServiceContext(withEnv({ APP_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }), () => new Date(t));
    const r = await captureQueues(() => deliverWebhook(production, id));
    expect(r.result).toMatchObject({ outcome: 'failed', attempt: { status_code: null, success: false, error: 'not sent: url must use https' } });
    expect(webhookJobs(r.jobs)).toEqual([]);
    expect(await received('prod-send')).toEqual([]);
    const log = await api('GET', `/api/developer/webhooks/${hook.id}/attempts`, { token: owner.token });
    expect(log.data).toHaveLength(1);
  });

  it('resolves the host before sending in production: a name that leads to loopback is not called', async () => {
    const { owner, hook } = await endpoint('prod-dns');
    await env.DB.prepare('UPDATE webhooks SET url = ? WHERE id = ?').bind('https://7f000001.nip.io/hook/prod-dns', hook.id).run();
    const t = Date.now();
    const id = await fanOutOne(owner.id, t);
    const production = createServiceContext(withEnv({ APP_ENV: 'production', WEBHOOK_DOH_URL: inject('dohResolver').url }), () => new Date(t));
    const r = await captureQueues(() => deliverWebhook(production, id));
    expect(r.result).toMatchObject({
      outcome: 'failed',
      attempt: { status_code: null, success: false, error: 'not sent: url resolves to a non-public address (127.0.0.1)' },
    });
    expect(await received('prod-dns')).toEqual([]);
  });

  it('reads at most 64 KiB of a response body, then drops the connection', async () => {
    const total = 256 * 1024 * 1024;
    const { owner } = await endpoint('big', { steps: [{ status: 200, bodyBytes: total }] });
    const t = Date.now();
    const r = await captureQueues(async () => deliverWebhook(servicesAt(t), await fanOutOne(owner.id, t)));
    expect(r.result).toMatchObject({ outcome: 'delivered', attempt: { status_code: 200 } });
    let got = (await received('big'))[0]!;
    for (let i = 0; i < 5 && !got.bodyComplete; i++) {
      await new Promise((res) => setTimeout(res, 100));
      got = (await received('big'))[0]!;
    }
    expect(got.bodyComplete).toBe(false);
    expect(got.bodyWritten).toBeLessThan(total / 4);
  });
});

describe('the reconciler', () => {
  it('re-sends the job of a delivery whose job was lost, and of one left sending by a crash', async () => {
    const { owner } = await endpoint('lost');
    const t = Date.now();
    // Queued, but the job never arrives.
    const lost = await fanOutOne(owner.id, t);
    const soon = await captureQueues(() => reconcileWebhooks(servicesAt(t + 30_000)));
    expect(webhookJobs(soon.jobs).map((j) => j.body.delivery_id)).not.toContain(lost);
    const later = await captureQueues(() => reconcileWebhooks(servicesAt(t + 2 * MIN)));
    expect(webhookJobs(later.jobs).map((j) => j.body.delivery_id)).toContain(lost);

    // Claimed, then the worker died mid-attempt: once the lease is over, it is re-sent and re-claimed.
    await env.DB.prepare("UPDATE webhook_deliveries SET status = 'sending', attempts = 1, lease_until = ? WHERE id = ?")
      .bind(t + MIN, lost)
      .run();
    expect(webhookJobs((await captureQueues(() => reconcileWebhooks(servicesAt(t + 30_000)))).jobs).map((j) => j.body.delivery_id)).not.toContain(lost);
    const after = await captureQueues(() => reconcileWebhooks(servicesAt(t + MIN + 1)));
    expect(webhookJobs(after.jobs).map((j) => j.body.delivery_id)).toContain(lost);
    const r = await captureQueues(() => deliverWebhook(servicesAt(t + MIN + 1), lost));
    expect(r.result).toMatchObject({ outcome: 'delivered', attempt: { attempt: 2 } });
    expect(await received('lost')).toHaveLength(1);
  });
});
