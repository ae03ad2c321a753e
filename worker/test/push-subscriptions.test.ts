import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { importVapid } from '../src/channels/push';
import { createApp } from '../src/app';
import { createServiceContext } from '../src/wiring/service-context';
import { fromBase64Url, toBase64Url } from '../src/lib/encoding';
import { listPushSubscriptions, MAX_PUSH_SUBSCRIPTIONS_PER_USER, removeGoneSubscription, subscribePush } from '../src/domains/notify/push-subscriptions';
import { LOCAL_VAPID_SUBJECT, vapidKeysFor, vapidPublicKey } from '../src/domains/notify/vapid-keys';
import { callerAs } from './helpers/trpc';
import { api, signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';

/** A subscription as PushSubscription.toJSON() gives it: a real P-256 point and a 16-byte secret. */
async function browserSubscription(endpoint = `https://push.example.net/send/${crypto.randomUUID()}`) {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
  return { endpoint, expirationTime: null, keys: { p256dh: toBase64Url(raw), auth: toBase64Url(crypto.getRandomValues(new Uint8Array(16))) } };
}

/** The real app with some settings changed, e.g. APP_ENV=production. */
async function apiWithEnv(overrides: Record<string, unknown>, method: string, path: string, opts: { token?: string; json?: unknown } = {}) {
  const headers = new Headers();
  if (opts.token) headers.set('authorization', `Bearer ${opts.token}`);
  if (opts.json !== undefined) headers.set('content-type', 'application/json');
  const res = await createApp().request(
    path,
    { method, headers, body: opts.json === undefined ? undefined : JSON.stringify(opts.json) },
    { ...env, ...overrides },
  );
  return { status: res.status, data: (await res.json()) as any };
}

describe('GET /api/notify/push/key', () => {
  it('generates one local key pair, stores it once, and hands out the same valid P-256 point every time', async () => {
    await env.DB.prepare("DELETE FROM app_settings WHERE key = 'vapid_keys'").run();
    const ctx = createServiceContext(env);
    // Concurrent first calls must agree on one pair.
    const first = await Promise.all([1, 2, 3, 4, 5].map(() => vapidPublicKey(ctx)));
    expect(new Set(first.map((k) => k.public_key)).size).toBe(1);

    const owner = await signedInUser();
    const a = await api('GET', '/api/notify/push/key', { token: owner.token });
    const b = await api('GET', '/api/notify/push/key', { token: owner.token });
    expect(a.status).toBe(200);
    expect(a.data).toEqual({ public_key: first[0]!.public_key });
    expect(b.data).toEqual(a.data);
    expect(a.data.public_key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const point = fromBase64Url(a.data.public_key);
    expect(point.length).toBe(65);
    expect(point[0]).toBe(0x04);
    await expect(crypto.subtle.importKey('raw', point, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify'])).resolves.toBeDefined();

    const rows = await env.DB.prepare("SELECT value FROM app_settings WHERE key = 'vapid_keys'").all<{ value: string }>();
    expect(rows.results).toHaveLength(1);
    expect(JSON.parse(rows.results[0]!.value).publicKey).toBe(a.data.public_key);
  });

  it('gives the push channel the matching private half and a usable subject', async () => {
    const ctx = createServiceContext(env);
    const keys = await vapidKeysFor(ctx);
    expect(keys.publicKey).toBe((await vapidPublicKey(ctx)).public_key);
    expect(keys.subject).toBe(LOCAL_VAPID_SUBJECT);
    // importVapid signs and verifies a probe: it throws unless the two halves belong together.
    await expect(importVapid(keys)).resolves.toMatchObject({ publicKey: keys.publicKey, subject: LOCAL_VAPID_SUBJECT });
  });

  it('uses the configured key and subject when they are set', async () => {
    const ctx = createServiceContext({ ...env, VAPID_PUBLIC_KEY: 'BPub', VAPID_PRIVATE_KEY: 'priv', VAPID_SUBJECT: 'mailto:ops@afterword.example' });
    expect(await vapidPublicKey(ctx)).toEqual({ public_key: 'BPub' });
    expect(await vapidKeysFor(ctx)).toEqual({ publicKey: 'BPub', privateKey: 'priv', subject: 'mailto:ops@afterword.example' });
  });

  it('in production without a configured key answers that push is not configured, and generates nothing', async () => {
    await env.DB.prepare("DELETE FROM app_settings WHERE key = 'vapid_keys'").run();
    const owner = await signedInUser();
    const res = await apiWithEnv({ APP_ENV: 'production' }, 'GET', '/api/notify/push/key', { token: owner.token });
    expect(res.status).toBe(501);
    expect(res.data).toEqual({ detail: 'Push notifications are not configured' });
    await expect(vapidKeysFor(createServiceContext({ ...env, APP_ENV: 'production' } as never))).rejects.toMatchObject({ code: 'NOT_IMPLEMENTED' });
    const n = await env.DB.prepare('SELECT count(*) AS n FROM app_settings').first<{ n: number }>();
    expect(n?.n).toBe(0);
    const configured = await apiWithEnv({ APP_ENV: 'production', VAPID_PUBLIC_KEY: 'BConfigured' }, 'GET', '/api/notify/push/key', { token: owner.token });
    expect(configured.data).toEqual({ public_key: 'BConfigured' });
  });

  it('needs a session', async () => {
    expect((await api('GET', '/api/notify/push/key')).status).toBe(401);
  });
});

describe('/api/notify/push/subscriptions', () => {
  it('saves a subscription (201 {id, endpoint}) and lists it by origin only', async () => {
    const owner = await signedInUser();
    const sub = await browserSubscription();
    const res = await api('POST', '/api/notify/push/subscriptions', { token: owner.token, json: sub });
    expect(res.status).toBe(201);
    expect(res.data).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), endpoint: sub.endpoint });
    const list = await api('GET', '/api/notify/push/subscriptions', { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.data).toEqual([{ id: res.data.id, endpoint_origin: 'https://push.example.net', created_at: expect.any(String) }]);
    expect(list.text).not.toContain(sub.keys.auth);
    expect(list.text).not.toContain(sub.endpoint);
    // The channel reads the keys back unchanged.
    expect(await listPushSubscriptions(createServiceContext(env), owner.id)).toEqual([{ id: res.data.id, endpoint: sub.endpoint, keys: sub.keys }]);
  });

  it('upserts by endpoint: the same browser again keeps its id and takes the new keys', async () => {
    const owner = await signedInUser();
    const sub = await browserSubscription();
    const first = await api('POST', '/api/notify/push/subscriptions', { token: owner.token, json: sub });
    const fresh = await browserSubscription(sub.endpoint);
    const again = await api('POST', '/api/notify/push/subscriptions', { token: owner.token, json: fresh });
    expect(again.status).toBe(201);
    expect(again.data.id).toBe(first.data.id);
    expect(await listPushSubscriptions(createServiceContext(env), owner.id)).toEqual([{ id: first.data.id, endpoint: sub.endpoint, keys: fresh.keys }]);
  });

  it('moves an endpoint another user held to whoever subscribed last, with a new id', async () => {
    const before = await signedInUser();
    const after = await signedInUser();
    const sub = await browserSubscription();
    const first = await api('POST', '/api/notify/push/subscriptions', { token: before.token, json: sub });
    const moved = await api('POST', '/api/notify/push/subscriptions', { token: after.token, json: sub });
    expect(moved.status).toBe(201);
    expect(moved.data.id).not.toBe(first.data.id);
    expect((await api('GET', '/api/notify/push/subscriptions', { token: before.token })).data).toEqual([]);
    expect((await api('GET', '/api/notify/push/subscriptions', { token: after.token })).data).toHaveLength(1);
    expect((await api('DELETE', '/api/notify/push/subscriptions', { token: before.token, json: { endpoint: sub.endpoint } })).status).toBe(404);
  });

  it('deletes only the caller’s own subscription; another user’s or an unknown endpoint is 404', async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    const sub = await browserSubscription();
    await api('POST', '/api/notify/push/subscriptions', { token: owner.token, json: sub });
    const theirs = await api('DELETE', '/api/notify/push/subscriptions', { token: outsider.token, json: { endpoint: sub.endpoint } });
    expect(theirs.status).toBe(404);
    expect(theirs.data).toEqual({ detail: 'Push subscription not found' });
    expect((await api('GET', '/api/notify/push/subscriptions', { token: owner.token })).data).toHaveLength(1);

    const mine = await api('DELETE', '/api/notify/push/subscriptions', { token: owner.token, json: { endpoint: sub.endpoint } });
    expect(mine.status).toBe(200);
    expect(mine.data).toEqual({ removed: true });
    expect((await api('GET', '/api/notify/push/subscriptions', { token: owner.token })).data).toEqual([]);
    expect((await api('DELETE', '/api/notify/push/subscriptions', { token: owner.token, json: { endpoint: sub.endpoint } })).status).toBe(404);
  });

  it.each([
    ['an endpoint that is not a URL', (s: any) => ({ ...s, endpoint: 'not a url' }), ['body', 'endpoint']],
    ['a non-http endpoint', (s: any) => ({ ...s, endpoint: 'ftp://push.example.net/x' }), ['body', 'endpoint']],
    ['missing keys', (s: any) => ({ endpoint: s.endpoint }), ['body', 'keys']],
    ['a p256dh that is too short', (s: any) => ({ ...s, keys: { ...s.keys, p256dh: 'abc' } }), ['body', 'keys', 'p256dh']],
    ['an auth secret with bad characters', (s: any) => ({ ...s, keys: { ...s.keys, auth: '!!!!!!!!!!!!!!!!!!!!!!' } }), ['body', 'keys', 'auth']],
  ])('refuses %s with 422', async (_name, mutate, loc) => {
    const owner = await signedInUser();
    const res = await api('POST', '/api/notify/push/subscriptions', { token: owner.token, json: mutate(await browserSubscription()) });
    expect(res.status).toBe(422);
    expect(res.data.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
    expect((await api('GET', '/api/notify/push/subscriptions', { token: owner.token })).data).toEqual([]);
  });

  it('refuses a delete without an endpoint with 422', async () => {
    const owner = await signedInUser();
    const res = await api('DELETE', '/api/notify/push/subscriptions', { token: owner.token, json: {} });
    expect(res.status).toBe(422);
    expect(res.data.detail[0].loc).toEqual(['body', 'endpoint']);
  });

  it('refuses plain-http endpoints in production', async () => {
    const owner = await signedInUser();
    const sub = await browserSubscription('http://push.example.net/send/1');
    const res = await apiWithEnv({ APP_ENV: 'production', VAPID_PUBLIC_KEY: 'B' }, 'POST', '/api/notify/push/subscriptions', { token: owner.token, json: sub });
    expect(res.status).toBe(422);
    expect(res.data).toEqual({ detail: 'endpoint must be an https URL' });
  });

  it(`keeps the newest ${MAX_PUSH_SUBSCRIPTIONS_PER_USER} devices per user`, async () => {
    const owner = await signedInUser();
    const t0 = Date.now();
    const endpoints: string[] = [];
    for (let i = 0; i <= MAX_PUSH_SUBSCRIPTIONS_PER_USER; i++) {
      const sub = await browserSubscription();
      endpoints.push(sub.endpoint);
      await subscribePush(servicesAt(t0 + i * 1000), owner.id, sub);
    }
    const kept = await listPushSubscriptions(createServiceContext(env), owner.id);
    expect(kept).toHaveLength(MAX_PUSH_SUBSCRIPTIONS_PER_USER);
    expect(kept.map((s) => s.endpoint)).not.toContain(endpoints[0]);
    expect(kept.map((s) => s.endpoint)).toContain(endpoints.at(-1));
  });

  it('forgets a subscription the push service called gone', async () => {
    const owner = await signedInUser();
    const res = await api('POST', '/api/notify/push/subscriptions', { token: owner.token, json: await browserSubscription() });
    await removeGoneSubscription(createServiceContext(env), res.data.id);
    expect((await api('GET', '/api/notify/push/subscriptions', { token: owner.token })).data).toEqual([]);
  });

  it('needs a session', async () => {
    const sub = await browserSubscription();
    expect((await api('GET', '/api/notify/push/subscriptions')).status).toBe(401);
    expect((await api('POST', '/api/notify/push/subscriptions', { json: sub })).status).toBe(401);
    expect((await api('DELETE', '/api/notify/push/subscriptions', { json: { endpoint: sub.endpoint } })).status).toBe(401);
  });
});

describe('push over tRPC', () => {
  it('vapidKey, subscribePush, pushSubscriptions and unsubscribePush call the same services', async () => {
    const owner = await signedInUser();
    const caller = await callerAs(owner.id);
    expect((await caller.notify.vapidKey()).public_key).toBe((await api('GET', '/api/notify/push/key', { token: owner.token })).data.public_key);
    const sub = await browserSubscription();
    const saved = await caller.notify.subscribePush(sub);
    expect(await caller.notify.pushSubscriptions()).toEqual([{ id: saved.id, endpoint_origin: 'https://push.example.net', created_at: expect.any(String) }]);
    expect(await caller.notify.unsubscribePush({ endpoint: sub.endpoint })).toEqual({ removed: true });
    await expect(caller.notify.unsubscribePush({ endpoint: sub.endpoint })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses without a session over HTTP', async () => {
    expect((await api('GET', '/api/trpc/notify.vapidKey')).status).toBe(401);
    expect((await api('GET', '/api/trpc/notify.pushSubscriptions')).status).toBe(401);
  });
});
