import { env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../src/app';
import { decodeWebhookSecret, MAX_WEBHOOKS_PER_USER } from '../src/contracts/webhooks';
import { decryptWebhookSecret } from '../src/domains/webhooks/secret';
import { checkWebhookUrl } from '../src/domains/webhooks/url-guard';
import { callerAs } from './helpers/trpc';
import { api, signedInUser } from './helpers/api';

const receiver = inject('webhookReceiver');
const KAT_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const GOOD_HTTPS = 'https://hooks.example.com/afterword';

type Env = typeof env;
const withEnv = (overrides: Record<string, string>) => ({ ...env, ...overrides }) as unknown as Env;
const PRODUCTION = withEnv({ APP_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_SECRET_KEY: 'a production key for the tests' });

/** The real app with other settings (same database): production mode, a switch turned off. */
async function apiWith(e: Env, method: string, path: string, token: string, json?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (json !== undefined) headers['content-type'] = 'application/json';
  const res = await createApp().request(path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) }, e);
  return { status: res.status, data: (await res.json()) as any };
}

const create = (token: string, json: Record<string, unknown>) =>
  api('POST', '/api/developer/webhooks', { token, json: { event: 'missed_checkins', retry: true, ...json } });

async function script(name: string, secret: string, steps: unknown[] = [{ status: 200 }]) {
  const res = await fetch(`${receiver.base}/__script/${name}`, { method: 'PUT', body: JSON.stringify({ secret, steps }) });
  expect(res.status).toBe(200);
}
const received = async (name: string) => (await (await fetch(`${receiver.base}/__received/${name}`)).json()) as any[];

describe('POST /api/developer/webhooks', () => {
  it('generates a whsec_ secret of 32 random bytes, shows it once, and stores it only encrypted', async () => {
    const owner = await signedInUser();
    const res = await create(owner.token, { url: `${receiver.base}/hook/gen` });
    expect(res.status).toBe(201);
    const secret: string = res.data.hmac_secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(decodeWebhookSecret(secret)?.byteLength).toBe(32);
    expect(res.data).toMatchObject({
      url: `${receiver.base}/hook/gen`,
      event: 'missed_checkins',
      retry: true,
      status: 'active',
      disabled_reason: null,
      sandbox: false,
    });

    const row = (await env.DB.prepare('SELECT * FROM webhooks WHERE id = ?').bind(res.data.id).first<Record<string, any>>())!;
    const rowText = JSON.stringify(row);
    expect(rowText).not.toContain(secret.slice(6));
    expect(rowText).not.toContain(secret.slice(6, 20));
    expect(row.secret_encrypted).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(await decryptWebhookSecret(env, res.data.id, row.secret_encrypted)).toBe(secret);
    // Bound to its row: the same ciphertext does not open as another webhook's.
    expect(await decryptWebhookSecret(env, crypto.randomUUID(), row.secret_encrypted)).toBeNull();

    const list = await api('GET', '/api/developer/webhooks', { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.data).toEqual([expect.objectContaining({ id: res.data.id, hmac_secret: `whsec_…${secret.slice(-4)}`, status: 'active' })]);
    expect(list.text).not.toContain(secret.slice(6, 20));
  });

  it('accepts a supplied secret in the format (24 to 64 bytes) and answers it once', async () => {
    const owner = await signedInUser();
    for (const secret of [KAT_SECRET, `whsec_${btoa('x'.repeat(64))}`]) {
      const res = await create(owner.token, { url: `${receiver.base}/hook/supplied`, hmac_secret: secret, retry: false });
      expect(res.status).toBe(201);
      expect(res.data.hmac_secret).toBe(secret);
      expect(res.data.retry).toBe(false);
    }
    // An empty secret means "generate one" (a form's blank field).
    const blank = await create(owner.token, { url: `${receiver.base}/hook/supplied`, hmac_secret: '' });
    expect(blank.status).toBe(201);
    expect(decodeWebhookSecret(blank.data.hmac_secret)?.byteLength).toBe(32);
  });

  it.each([
    ['no whsec_ prefix', 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    ['another prefix', 'whsk_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    ['not base64', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS!'],
    ['base64url alphabet', `whsec_${btoa('\xfb\xff'.repeat(12)).replace(/\+/g, '-').replace(/\//g, '_')}`],
    ['missing padding', `whsec_${btoa('y'.repeat(25)).replace(/=+$/, '')}`],
    ['non-canonical last character', `${'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSx'.slice(0, -1)}x=`],
    ['23 bytes', `whsec_${btoa('z'.repeat(23))}`],
    ['65 bytes', `whsec_${btoa('z'.repeat(65))}`],
    ['empty after the prefix', 'whsec_'],
  ])('refuses a supplied secret with %s (422)', async (_why, secret) => {
    const owner = await signedInUser();
    const res = await create(owner.token, { url: GOOD_HTTPS, hmac_secret: secret });
    expect(res.status).toBe(422);
    expect(res.data.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'hmac_secret'], msg: expect.stringMatching(/whsec_ followed by the base64 of 24 to 64 bytes/) }),
    ]);
  });

  it.each([
    ['no url', { event: 'missed_checkins', retry: true }, 'url'],
    ['a relative url', { url: '/hook', event: 'missed_checkins', retry: true }, 'url'],
    ['an ftp url', { url: 'ftp://example.com/x', event: 'missed_checkins', retry: true }, 'url'],
    ['credentials in the url', { url: 'http://user:pw@127.0.0.1:9/x', event: 'missed_checkins', retry: true }, 'url'],
    ['an over-long url', { url: `https://example.com/${'a'.repeat(2048)}`, event: 'missed_checkins', retry: true }, 'url'],
    ['an unknown event', { url: GOOD_HTTPS, event: 'check_in', retry: true }, 'event'],
    ['no retry', { url: GOOD_HTTPS, event: 'missed_checkins' }, 'retry'],
    ['a string retry', { url: GOOD_HTTPS, event: 'missed_checkins', retry: 'yes' }, 'retry'],
  ])('refuses %s with 422 naming the field', async (_why, json, field) => {
    const owner = await signedInUser();
    const res = await api('POST', '/api/developer/webhooks', { token: owner.token, json });
    expect(res.status).toBe(422);
    expect(res.data.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toContain(`body.${field}`);
    expect((await api('GET', '/api/developer/webhooks', { token: owner.token })).data).toEqual([]);
  });

  it(`allows at most ${MAX_WEBHOOKS_PER_USER} endpoints per account (409)`, async () => {
    const owner = await signedInUser();
    const now = Date.now();
    const rows = Array.from({ length: MAX_WEBHOOKS_PER_USER }, () =>
      env.DB.prepare(
        `INSERT INTO webhooks (id, user_id, url, event, secret_encrypted, secret_hint, retry, sandbox, status, created_at, updated_at) VALUES (?, ?, ?, 'missed_checkins', 'v1.x.y', 'abcd', 1, 0, 'active', ?, ?)`,
      ).bind(crypto.randomUUID(), owner.id, GOOD_HTTPS, now, now),
    );
    await env.DB.batch(rows);
    const res = await create(owner.token, { url: GOOD_HTTPS });
    expect(res.status).toBe(409);
  });

  it('needs a session: 401 without one, 403 for an API key', async () => {
    expect((await api('POST', '/api/developer/webhooks', { json: { url: GOOD_HTTPS, event: 'missed_checkins', retry: true } })).status).toBe(401);
    expect((await api('GET', '/api/developer/webhooks')).status).toBe(401);
    const owner = await signedInUser();
    const key = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'ci', scopes: ['read:canary'], sandbox: false } });
    expect(key.status).toBe(201);
    for (const [method, path] of [
      ['GET', '/api/developer/webhooks'],
      ['POST', '/api/developer/webhooks'],
      ['GET', '/api/developer/webhooks/sample'],
    ] as const) {
      const res = await api(method, path, {
        token: key.data.key,
        json: method === 'POST' ? { url: GOOD_HTTPS, event: 'missed_checkins', retry: true } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await api('GET', '/api/developer/webhooks', { token: owner.token })).data).toEqual([]);
  });
});

describe('the SSRF guard', () => {
  // TESTING.md's table, and the rest of the production rules.
  const refused = [
    'http://hooks.example.com/afterword',
    'https://127.0.0.1/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://10.0.0.1/hook',
    'https://192.168.1.10/hook',
    'https://172.16.0.5/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://0x7f000001/hook',
    'https://2130706433/hook',
    'https://017700000001/hook',
    'https://127.1/hook',
    'https://0/hook',
    'https://localhost/hook',
    'https://localhost./hook',
    'https://LOCALHOST/hook',
    'https://api.localhost/hook',
    'https://printer.local/hook',
    'https://service.internal/hook',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://metadata/hook',
    'https://intranet/hook',
    'https://10.0.0.1.nip.io/hook',
    'https://10-0-0-1.sslip.io/hook',
    'https://user:secret@hooks.example.com/hook',
    'https://hooks.example.com:8443/hook',
    'https://hooks.example.com:80/hook',
    'ftp://hooks.example.com/hook',
  ];

  it.each(refused)('refuses %s in production, even with WEBHOOK_ALLOW_PRIVATE_URLS=true (422)', async (url) => {
    const owner = await signedInUser();
    const res = await apiWith(PRODUCTION, 'POST', '/api/developer/webhooks', owner.token, { url, event: 'missed_checkins', retry: true });
    expect(res.status).toBe(422);
    expect(res.data.detail[0].loc).toEqual(['body', 'url']);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM webhooks WHERE user_id = ?').bind(owner.id).first<{ n: number }>())!.n).toBe(0);
  });

  it.each([GOOD_HTTPS, 'https://hooks.example.com:443/x?team=1', 'https://ec2-3-4-5-6.compute-1.amazonaws.com/hook'])(
    'accepts %s in production',
    async (url) => {
      const owner = await signedInUser();
      const res = await apiWith(PRODUCTION, 'POST', '/api/developer/webhooks', owner.token, { url, event: 'missed_checkins', retry: true });
      expect(res.status).toBe(201);
      expect(res.data.url).toBe(new URL(url).href);
    },
  );

  it('refuses to store a secret in production without WEBHOOK_SECRET_KEY (500, nothing stored)', async () => {
    const owner = await signedInUser();
    const res = await apiWith(withEnv({ APP_ENV: 'production' }), 'POST', '/api/developer/webhooks', owner.token, {
      url: GOOD_HTTPS,
      event: 'missed_checkins',
      retry: true,
    });
    expect(res.status).toBe(500);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM webhooks WHERE user_id = ?').bind(owner.id).first<{ n: number }>())!.n).toBe(0);
  });

  it('allows http and loopback outside production by default, and refuses them when the setting is off', async () => {
    const owner = await signedInUser();
    const local = `${receiver.base}/hook/local`;
    expect((await create(owner.token, { url: local })).status).toBe(201);
    expect((await create(owner.token, { url: 'http://localhost:3000/hook' })).status).toBe(201);
    const off = withEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
    const res = await apiWith(off, 'POST', '/api/developer/webhooks', owner.token, { url: local, event: 'missed_checkins', retry: true });
    expect(res.status).toBe(422);
    expect(res.data.detail[0].msg).toBe('url must use https');
  });

  it('checkWebhookUrl names the rule that refused', () => {
    const prod = PRODUCTION as never;
    expect(checkWebhookUrl('https://2130706433/x', prod)).toEqual({ ok: false, reason: 'url must use a host name, not an IP address' });
    expect(checkWebhookUrl('https://a.internal/x', prod)).toEqual({ ok: false, reason: 'url must not point at a local, internal or metadata host' });
    expect(checkWebhookUrl('https://a:b@example.com/x', prod)).toEqual({ ok: false, reason: 'url must not contain a user name or password' });
    expect(checkWebhookUrl('https://Hooks.Example.com/x', prod)).toEqual({ ok: true, url: 'https://hooks.example.com/x' });
  });
});

describe('owners only', () => {
  it('another user gets 404 for delete, test and attempts, and never sees the endpoint', async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    const { data: hook } = await create(owner.token, { url: `${receiver.base}/hook/owned` });
    for (const [method, path] of [
      ['DELETE', `/api/developer/webhooks/${hook.id}`],
      ['POST', `/api/developer/webhooks/${hook.id}/test`],
      ['GET', `/api/developer/webhooks/${hook.id}/attempts`],
    ] as const) {
      const res = await api(method, path, { token: outsider.token });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.data).toEqual({ detail: 'Webhook not found' });
    }
    expect((await api('GET', '/api/developer/webhooks', { token: outsider.token })).data).toEqual([]);
    expect(await received('owned')).toEqual([]);
    // A malformed id is nobody's: 404 too.
    expect((await api('DELETE', '/api/developer/webhooks/not-an-id', { token: owner.token })).status).toBe(404);
    expect((await api('GET', '/api/developer/webhooks', { token: owner.token })).data).toHaveLength(1);
  });

  it('DELETE removes the endpoint with its deliveries and attempt log', async () => {
    const owner = await signedInUser();
    const { data: hook } = await create(owner.token, { url: `${receiver.base}/hook/deleted` });
    await script('deleted', hook.hmac_secret);
    expect((await api('POST', `/api/developer/webhooks/${hook.id}/test`, { token: owner.token })).status).toBe(200);
    const del = await api('DELETE', `/api/developer/webhooks/${hook.id}`, { token: owner.token });
    expect(del.status).toBe(200);
    expect(del.data).toEqual({ id: hook.id, deleted: true });
    expect((await api('GET', '/api/developer/webhooks', { token: owner.token })).data).toEqual([]);
    for (const table of ['webhooks', 'webhook_deliveries', 'webhook_attempts']) {
      const col = table === 'webhooks' ? 'id' : 'webhook_id';
      expect((await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${col} = ?`).bind(hook.id).first<{ n: number }>())!.n, table).toBe(0);
    }
    expect((await api('DELETE', `/api/developer/webhooks/${hook.id}`, { token: owner.token })).status).toBe(404);
  });
});

describe('Send test event, attempts and the sample', () => {
  it('sends one signed POST of the sample payload that standardwebhooks verifies, and logs it', async () => {
    const owner = await signedInUser();
    const { data: hook } = await create(owner.token, { url: `${receiver.base}/hook/test-event` });
    await script('test-event', hook.hmac_secret);
    const res = await api('POST', `/api/developer/webhooks/${hook.id}/test`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.data.delivered).toBe(true);
    expect(res.data.attempt).toMatchObject({ webhook_id: hook.id, event: 'missed_checkins', attempt: 1, status_code: 200, success: true, error: null });
    expect(res.data.attempt.message_id).toMatch(/^msg_[A-Za-z0-9]{24}$/);

    const [got, ...more] = await received('test-event');
    expect(more).toEqual([]);
    expect(got.verified).toBe(true);
    expect(got.headers['webhook-id']).toBe(res.data.attempt.message_id);
    expect(got.headers['content-type']).toBe('application/json');
    const body = JSON.parse(got.body);
    const sample = await api('GET', '/api/developer/webhooks/sample', { token: owner.token });
    expect(sample.status).toBe(200);
    expect(sample.data).toMatchObject({ type: 'missed_checkins', data: { user_id: owner.id, event: 'missed_checkins', misses: 1 } });
    expect(Object.keys(sample.data.data).sort()).toEqual(['canary_id', 'deadline', 'event', 'misses', 'user_id']);
    // The sample's times are "an hour before now", to the second: the test event's are an hour before
    // its own timestamp (a moment earlier, on a busy machine perhaps in an earlier second).
    const anHourBefore = new Date(Math.floor(Date.parse(body.timestamp) / 1000) * 1000 - 3_600_000).toISOString();
    expect(body).toEqual({ ...sample.data, timestamp: body.timestamp, data: { ...sample.data.data, deadline: anHourBefore, test: true } });

    const attempts = await api('GET', `/api/developer/webhooks/${hook.id}/attempts`, { token: owner.token });
    expect(attempts.status).toBe(200);
    expect(attempts.data).toEqual([res.data.attempt]);
  });

  it('logs a failed test without retrying it, newest attempt first', async () => {
    const owner = await signedInUser();
    const { data: hook } = await create(owner.token, { url: `${receiver.base}/hook/test-fail`, retry: true });
    await script('test-fail', hook.hmac_secret, [{ status: 500 }, { status: 200 }]);
    const first = await api('POST', `/api/developer/webhooks/${hook.id}/test`, { token: owner.token });
    expect(first.data).toMatchObject({ delivered: false, attempt: { status_code: 500, success: false, error: 'HTTP 500' } });
    const second = await api('POST', `/api/developer/webhooks/${hook.id}/test`, { token: owner.token });
    expect(second.data.delivered).toBe(true);
    const attempts = await api('GET', `/api/developer/webhooks/${hook.id}/attempts`, { token: owner.token });
    expect(attempts.data.map((a: { status_code: number }) => a.status_code)).toEqual([200, 500]);
    expect(new Set(attempts.data.map((a: { message_id: string }) => a.message_id)).size).toBe(2);
    expect((await api('GET', `/api/developer/webhooks/${hook.id}/attempts?limit=1`, { token: owner.token })).data).toHaveLength(1);
    expect((await api('GET', `/api/developer/webhooks/${hook.id}/attempts?limit=0`, { token: owner.token })).status).toBe(422);
    expect(await received('test-fail')).toHaveLength(2);
  });
});

describe('tRPC webhooks.*', () => {
  it('list, create, test, attempts, sample and remove call the same services', async () => {
    const owner = await signedInUser();
    const caller = await callerAs(owner.id);
    const created = await caller.webhooks.create({ url: `${receiver.base}/hook/trpc`, event: 'missed_checkins', hmac_secret: KAT_SECRET, retry: false });
    expect(created.hmac_secret).toBe(KAT_SECRET);
    await script('trpc', KAT_SECRET);
    expect(await caller.webhooks.list()).toEqual([expect.objectContaining({ id: created.id, hmac_secret: 'whsec_…LaSw' })]);
    const tested = await caller.webhooks.test({ id: created.id });
    expect(tested.delivered).toBe(true);
    expect(await caller.webhooks.attempts({ id: created.id })).toEqual([tested.attempt]);
    expect((await caller.webhooks.sample()).data.user_id).toBe(owner.id);
    await expect(caller.webhooks.create({ url: GOOD_HTTPS, event: 'missed_checkins', hmac_secret: 'whsec_short', retry: true })).rejects.toMatchObject({
      code: 'UNPROCESSABLE_CONTENT',
    });
    await expect(caller.webhooks.remove({ id: crypto.randomUUID() })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await caller.webhooks.remove({ id: created.id })).toEqual({ id: created.id, deleted: true });
    expect(await caller.webhooks.list()).toEqual([]);
  });
});
