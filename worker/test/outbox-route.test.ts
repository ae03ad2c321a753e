import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { deliverToOutbox } from '../src/channels/outbox';
import { createServiceContext } from '../src/env';
import { callerAs } from './helpers/trpc';
import { api, signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';

const production = { ...env, APP_ENV: 'production' } as unknown as typeof env;

/** The real app as deployed to production: same database, APP_ENV=production. */
async function productionApi(method: string, path: string, token?: string) {
  const headers = token ? { authorization: `Bearer ${token}` } : undefined;
  const res = await createApp().request(path, { method, headers }, production);
  return { status: res.status, data: (await res.json()) as any };
}

const sample = (key: string) => ({ idempotencyKey: key, subject: `Subject ${key}`, text: 'Body', link: 'http://127.0.0.1:8787/app/inbox' });

describe('GET /api/outbox (local only)', () => {
  it('is enabled in development and lists stored deliveries newest first', async () => {
    const owner = await signedInUser();
    const t0 = Date.now() + 60_000;
    await deliverToOutbox(servicesAt(t0), 'email', 'grace@example.com', sample('route:1'));
    await deliverToOutbox(servicesAt(t0 + 1000), 'sms', '+14155550100', sample('route:2'));
    const res = await api('GET', '/api/outbox', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.data.enabled).toBe(true);
    expect(res.data.messages.slice(0, 2)).toEqual([
      expect.objectContaining({ channel: 'sms', address: '+14155550100', subject: 'Subject route:2', created_at: new Date(t0 + 1000).toISOString() }),
      expect.objectContaining({ channel: 'email', address: 'grace@example.com', subject: 'Subject route:1', link: 'http://127.0.0.1:8787/app/inbox' }),
    ]);
    const one = await api('GET', '/api/outbox?limit=1', { token: owner.token });
    expect(one.data.messages).toHaveLength(1);
    expect(one.data.messages[0].subject).toBe('Subject route:2');
  });

  it.each(['0', '-1', '501', 'ten', '1.5', ''])('refuses limit=%s with 422', async (limit) => {
    const owner = await signedInUser();
    const res = await api('GET', `/api/outbox?limit=${limit}`, { token: owner.token });
    expect(res.status).toBe(422);
    expect(res.data.detail[0].loc).toEqual(['query', 'limit']);
  });

  it('needs a session', async () => {
    expect((await api('GET', '/api/outbox')).status).toBe(401);
  });

  it('does not exist in production, signed in or not', async () => {
    const owner = await signedInUser();
    for (const token of [owner.token, undefined]) {
      const res = await productionApi('GET', '/api/outbox', token);
      expect(res.status).toBe(404);
      expect(res.data).toEqual({ detail: 'No API route for GET /api/outbox' });
    }
  });
});

describe('GET /api/outbox/status', () => {
  it('says enabled in development and disabled in production, without a session', async () => {
    const dev = await api('GET', '/api/outbox/status');
    expect(dev.status).toBe(200);
    expect(dev.data).toEqual({ enabled: true });
    expect(await productionApi('GET', '/api/outbox/status')).toEqual({ status: 200, data: { enabled: false } });
  });
});

describe('outbox over tRPC', () => {

  async function callerFor(services: ReturnType<typeof createServiceContext>, withUser: boolean) {
    const owner = await signedInUser();
    return callerAs(withUser ? owner.id : null, { services });
  }

  it('status is public; list needs a session and answers like REST', async () => {
    expect(await (await callerFor(createServiceContext(env), false)).outbox.status()).toEqual({ enabled: true });
    await expect((await callerFor(createServiceContext(env), false)).outbox.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await deliverToOutbox(createServiceContext(env), 'push', 'https://push.example/x', sample('trpc:1'));
    const listed = await (await callerFor(createServiceContext(env), true)).outbox.list({ limit: 500 });
    expect(listed.enabled).toBe(true);
    expect(listed.messages.map((m) => m.idempotency_key)).toContain('trpc:1');
    await expect((await callerFor(createServiceContext(env), true)).outbox.list({ limit: 0 })).rejects.toMatchObject({ code: 'UNPROCESSABLE_CONTENT' });
  });

  it('in production: status says disabled and list is not found', async () => {
    const caller = await callerFor(createServiceContext(production), true);
    expect(await caller.outbox.status()).toEqual({ enabled: false });
    await expect(caller.outbox.list()).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers over HTTP without a session', async () => {
    const res = await api('GET', '/api/trpc/outbox.status');
    expect(res.status).toBe(200);
    expect(res.data.result.data).toEqual({ enabled: true });
    expect((await api('GET', '/api/trpc/outbox.list')).status).toBe(401);
  });
});
