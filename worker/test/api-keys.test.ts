import { createExecutionContext, env } from 'cloudflare:test';
import fc from 'fast-check';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { API_KEY_LENGTH, type ApiScope } from '../src/contracts/developer';
import { PLAN_LIMITS } from '../src/contracts/plans';
import { BASE62, crc32, keyChecksum, newApiKey, parseApiKey, toBase62 } from '../src/domains/developer/key-format';
import { DEATH_REPORT_KEY_ONLY } from '../src/domains/developer/death-verification';
import { INVALID_API_KEY, REVOKED_API_KEY } from '../src/domains/developer/authenticate-key';
import { flushPendingUsage } from '../src/domains/developer/usage-buffer';
import { createDb } from '@afterword/db';
import { hashSecret } from '../src/lib/secrets';
import { KEYS_CANNOT_MANAGE, KEY_TRPC_REFUSED, keyMissingScope } from '../src/wiring/api-key-policy';
import { authenticate } from '../src/wiring/authenticate';
import type { AppEnv } from '../src/middleware/context';
import { handleError } from '../src/middleware/errors';
import { requestContext } from '../src/middleware/request-context';
import { callerAs } from './helpers/trpc';
import { api, signedInUser } from './helpers/api';
import { countingD1 } from './helpers/counting-d1';

/** POST /api/developer/keys as a signed-in person. */
async function createKey(token: string, scopes: ApiScope[], sandbox = false, name = 'integration') {
  const res = await api('POST', '/api/developer/keys', { token, json: { name, scopes, sandbox } });
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${res.text}`);
  return res.data as { id: string; key: string; prefix: string; scopes: ApiScope[]; sandbox: boolean };
}

const keyRow = (id: string) => env.DB.prepare('SELECT * FROM api_keys WHERE id = ?').bind(id).first<Record<string, unknown>>();
/** The user's accepted calls this month (the sum of their keys' rows in D1, after the usage buffer's flush), or null when none was counted. */
const usageCount = async (userId: string) => {
  await flushPendingUsage(createDb(env.DB));
  return (
    (
      await env.DB.prepare('SELECT sum(count) AS count FROM api_usage WHERE user_id = ? AND month = ?')
        .bind(userId, new Date().toISOString().slice(0, 7))
        .first<{ count: number | null }>()
    )?.count ?? null
  );
};
/** One key's counters, derived from its monthly rows in D1 (after the usage buffer's flush). */
const keyUsage = async (keyId: string) => {
  await flushPendingUsage(createDb(env.DB));
  return (await env.DB.prepare('SELECT coalesce(sum(count), 0) AS usage_count, max(last_used_at) AS last_used_at FROM api_usage WHERE key_id = ?')
    .bind(keyId)
    .first<{ usage_count: number; last_used_at: number | null }>())!;
};

/** One request through the real app with a counting D1. */
async function countedCall(method: string, path: string, token: string) {
  const { db, trips } = countingD1(env.DB);
  const res = await createApp().fetch(
    new Request(`http://afterword.test${path}`, { method, headers: { authorization: `Bearer ${token}` } }),
    { ...env, DB: db },
    createExecutionContext(),
  );
  return { res, trips, data: (await res.json()) as any };
}

describe('key format and checksum', () => {
  it('computes the standard CRC-32 and pads base62 to six characters', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(toBase62(0, 6)).toBe('000000');
    expect(toBase62(61, 6)).toBe('00000z');
    expect(toBase62(2 ** 32 - 1, 6)).toHaveLength(6);
  });

  it('issues afw_live_ / afw_test_ + 32 random base62 + a 6-character CRC32 of the rest', () => {
    for (const sandbox of [false, true]) {
      const key = newApiKey(sandbox);
      expect(key).toMatch(sandbox ? /^afw_test_[0-9A-Za-z]{38}$/ : /^afw_live_[0-9A-Za-z]{38}$/);
      expect(key).toHaveLength(API_KEY_LENGTH);
      expect(key.slice(-6)).toBe(keyChecksum(key.slice(0, -6)));
      expect(parseApiKey(key)).toEqual({ sandbox });
    }
    expect(new Set(Array.from({ length: 200 }, () => newApiKey(false))).size).toBe(200);
  });

  it('refuses any single-character change, a wrong length or the wrong prefix', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.nat(), fc.constantFrom(...BASE62), (sandbox, at, ch) => {
        const key = newApiKey(sandbox);
        const i = 9 + (at % (key.length - 9));
        fc.pre(key[i] !== ch);
        expect(parseApiKey(key.slice(0, i) + ch + key.slice(i + 1))).toBeNull();
      }),
      { numRuns: 500 },
    );
    const key = newApiKey(false);
    expect(parseApiKey(key.slice(0, -1))).toBeNull();
    expect(parseApiKey(`${key}0`)).toBeNull();
    expect(parseApiKey(key.replace('afw_live_', 'afw_test_'))).toBeNull();
    expect(parseApiKey(key.replace('afw_live_', 'afw_prod_'))).toBeNull();
  });

  it('answers a bad checksum or a malformed key with 401 before any D1 access', async () => {
    const key = newApiKey(false);
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    for (const bad of [key.slice(0, -1) + last, 'afw_live_short', `afw_test_${'x'.repeat(38)}`, `${key}!`]) {
      const { res, trips, data } = await countedCall('GET', '/api/canary/status', bad);
      expect(res.status).toBe(401);
      expect(data).toEqual({ detail: INVALID_API_KEY });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(trips).toEqual([]);
    }
  });

  it('answers a well-formed but unknown key with 401', async () => {
    const res = await api('GET', '/api/canary/status', { token: newApiKey(false) });
    expect(res.status).toBe(401);
    expect(res.data.detail).toBe(INVALID_API_KEY);
  });
});

describe('creating, listing and revoking keys', () => {
  it('shows the key once and stores only its SHA-256 and a display prefix', async () => {
    const owner = await signedInUser();
    const res = await api('POST', '/api/developer/keys', {
      token: owner.token,
      json: { name: '  Zapier  ', scopes: ['read:messages', 'read:canary', 'read:canary'], sandbox: false },
    });
    expect(res.status).toBe(201);
    const created = res.data;
    expect(created).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^afw_live_[0-9A-Za-z]{38}$/),
      client_name: 'Zapier',
      scopes: ['read:canary', 'read:messages'],
      sandbox: false,
      prefix: created.key.slice(0, 13),
      created_at: expect.any(String),
      usage_count: 0,
      last_used_at: null,
    });

    const row = await keyRow(created.id);
    expect(row).not.toBeNull();
    expect(row!.key_hash).toBe(await hashSecret(created.key));
    expect(row!.prefix).toBe(created.key.slice(0, 13));
    expect(JSON.parse(String(row!.scopes))).toEqual(['read:canary', 'read:messages']);
    // Neither the key nor its secret part is anywhere in the table.
    const secretPart = created.key.slice(13);
    const dump = JSON.stringify(await env.DB.prepare('SELECT * FROM api_keys').all());
    expect(dump).not.toContain(created.key);
    expect(dump).not.toContain(secretPart);
    expect(Object.keys(row!).sort()).toEqual(['client_name', 'created_at', 'id', 'key_hash', 'prefix', 'revoked_at', 'sandbox', 'scopes', 'user_id'].sort());
  });

  it('lists the caller’s active keys without the key or its hash, and not other people’s', async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const a = await createKey(owner.token, ['read:canary']);
    const b = await createKey(owner.token, ['read:messages'], true);
    await createKey(other.token, ['read:canary']);
    const res = await api('GET', '/api/developer/keys', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.data).toHaveLength(2);
    for (const item of res.data) {
      expect(Object.keys(item).sort()).toEqual(['client_name', 'created_at', 'id', 'last_used_at', 'prefix', 'sandbox', 'scopes', 'usage_count']);
    }
    expect(res.data.map((k: { id: string }) => k.id).sort()).toEqual([a.id, b.id].sort());
    for (const secret of [a.key, b.key, await hashSecret(a.key), await hashSecret(b.key)]) expect(res.text).not.toContain(secret);
  });

  it('refuses invalid input with 422 naming the field', async () => {
    const owner = await signedInUser();
    for (const [json, field] of [
      [{ name: '', scopes: ['read:canary'] }, 'name'],
      [{ name: 'x', scopes: [] }, 'scopes'],
      [{ name: 'x', scopes: ['admin'] }, 'scopes'],
      [{ name: 'x', scopes: ['read:canary'], sandbox: 'yes' }, 'sandbox'],
    ] as const) {
      const res = await api('POST', '/api/developer/keys', { token: owner.token, json });
      expect(res.status).toBe(422);
      expect(res.data.detail.some((d: { loc: unknown[] }) => d.loc[1] === field)).toBe(true);
    }
  });

  it('needs a session: 401 without one', async () => {
    expect((await api('GET', '/api/developer/keys')).status).toBe(401);
    expect((await api('POST', '/api/developer/keys', { json: { name: 'x', scopes: ['read:canary'] } })).status).toBe(401);
  });

  it('revokes at once: the next call with the key is 401; revoking again or someone else’s key is 404', async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const { id, key } = await createKey(owner.token, ['webhook:death-verification']);
    expect((await api('POST', '/api/death-verification/report', { token: key })).status).toBe(202);

    expect((await api('DELETE', `/api/developer/keys/${id}`, { token: other.token })).status).toBe(404);
    const revoked = await api('DELETE', `/api/developer/keys/${id}`, { token: owner.token });
    expect(revoked.status).toBe(200);
    expect(revoked.data).toEqual({ id, revoked_at: expect.any(String) });

    const after = await api('POST', '/api/death-verification/report', { token: key });
    expect(after.status).toBe(401);
    expect(after.data).toEqual({ detail: REVOKED_API_KEY });
    // Also on a route keys may never call: authentication comes before the policy.
    expect((await api('GET', '/api/developer/keys', { token: key })).status).toBe(401);
    expect((await api('DELETE', `/api/developer/keys/${id}`, { token: owner.token })).status).toBe(404);
    expect((await api('DELETE', '/api/developer/keys/not-a-uuid', { token: owner.token })).status).toBe(404);
    expect((await api('GET', '/api/developer/keys', { token: owner.token })).data).toEqual([]);
  });

  it('caps active keys per account', async () => {
    const owner = await signedInUser();
    await env.DB.batch(
      Array.from({ length: 25 }, (_, i) =>
        env.DB.prepare('INSERT INTO api_keys (id, user_id, client_name, key_hash, prefix, scopes, sandbox, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)').bind(
          crypto.randomUUID(),
          owner.id,
          `k${i}`,
          `hash-${crypto.randomUUID()}`,
          'afw_live_xxxx',
          '["read:canary"]',
          Date.now(),
        ),
      ),
    );
    const res = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'one more', scopes: ['read:canary'] } });
    expect(res.status).toBe(403);
    expect(res.data.detail).toMatch(/at most 25 active API keys/);
  });

  it('offers the same operations over tRPC as developer.keys.list/create/revoke (session only)', async () => {
    const owner = await signedInUser();
    const caller = await callerAs(owner.id);
    const created = await caller.developer.keys.create({ name: 'cli', scopes: ['read:canary'], sandbox: true });
    expect(created.key).toMatch(/^afw_test_/);
    expect(await caller.developer.keys.list()).toEqual([expect.objectContaining({ id: created.id, sandbox: true })]);
    await caller.developer.keys.revoke({ id: created.id });
    expect(await caller.developer.keys.list()).toEqual([]);

    // Over HTTP, tRPC refuses keys altogether (the developer API is REST).
    const { key } = await createKey(owner.token, ['read:canary']);
    const res = await api('GET', '/api/trpc/developer.keys.list', { token: key });
    expect(res.status).toBe(403);
    expect(res.data.detail).toBe(KEY_TRPC_REFUSED);
  });
});

describe('key calls', () => {
  it('a key never manages keys, webhooks or the account', async () => {
    const owner = await signedInUser();
    const all = await createKey(owner.token, ['read:canary', 'read:messages', 'create:vault', 'webhook:death-verification']);
    for (const [method, path, json] of [
      ['POST', '/api/developer/keys', { name: 'escalate', scopes: ['read:canary'] }],
      ['GET', '/api/developer/keys', undefined],
      ['DELETE', `/api/developer/keys/${all.id}`, undefined],
      ['POST', '/api/developer/webhooks', { url: 'https://example.com/hook', event: 'missed_checkins', retry: true }],
      ['GET', '/api/developer/webhooks', undefined],
      ['POST', '/api/auth/logout', undefined],
      ['POST', '/api/auth/password', { current_password: 'x', new_password: 'y' }],
      ['GET', '/api/auth/me', undefined],
      ['PATCH', '/api/profile', { display_name: 'pwned' }],
      ['PUT', '/api/keys/me', {}],
    ] as const) {
      const res = await api(method, path, { token: all.key, json });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.data.detail).toBe(KEYS_CANNOT_MANAGE);
    }
    // The key still exists and still works.
    expect((await api('GET', '/api/developer/keys', { token: owner.token })).data).toHaveLength(1);
  });

  it('counts an accepted call: usage_count, last_used_at and the month in api_usage, with X-RateLimit-*', async () => {
    const owner = await signedInUser();
    const { id, key } = await createKey(owner.token, ['webhook:death-verification']);
    const before = Date.now();
    const res = await api('POST', '/api/death-verification/report', { token: key, json: {} });
    // Accepted: the key's report opens the veto window (worker/test/guardian-ladder.test.ts follows it).
    expect(res.status).toBe(202);
    expect(res.data.recorded).toBe('death_reported');
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('99');
    const row = await keyUsage(id);
    expect(row.usage_count).toBe(1);
    expect(Number(row.last_used_at)).toBeGreaterThanOrEqual(before);
    expect(await usageCount(owner.id)).toBe(1);
    const listed = (await api('GET', '/api/developer/keys', { token: owner.token })).data[0];
    expect(listed.usage_count).toBe(1);
    expect(Date.parse(listed.last_used_at)).toBeGreaterThanOrEqual(before);
  });

  it('refuses a call outside the key’s scopes with 403 naming the scope, without counting it', async () => {
    const owner = await signedInUser();
    const { id, key } = await createKey(owner.token, ['read:canary']);
    const res = await api('POST', '/api/death-verification/report', { token: key });
    expect(res.status).toBe(403);
    expect(res.data.detail).toBe(keyMissingScope('webhook:death-verification'));
    expect(res.data.detail).toContain('webhook:death-verification');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('100');
    expect((await keyUsage(id)).usage_count).toBe(0);
    expect(await usageCount(owner.id)).toBeNull();
  });

  it('the death report is key-only: a session gets 403, nobody 401', async () => {
    const owner = await signedInUser();
    const session = await api('POST', '/api/death-verification/report', { token: owner.token });
    expect(session.status).toBe(403);
    expect(session.data.detail).toBe(DEATH_REPORT_KEY_ONLY);
    expect((await api('POST', '/api/death-verification/report')).status).toBe(401);
  });

  it('enforces the plan’s monthly quota per user: 429 with Retry-After to the next UTC month and X-RateLimit-*', async () => {
    const owner = await signedInUser();
    const first = await createKey(owner.token, ['webhook:death-verification']);
    const second = await createKey(owner.token, ['webhook:death-verification']);
    const limit = PLAN_LIMITS.free.apiCallsPerMonth;
    const month = new Date().toISOString().slice(0, 7);
    await env.DB.prepare('INSERT INTO api_usage (key_id, user_id, month, count, last_used_at) VALUES (?, ?, ?, ?, ?)')
      .bind(first.id, owner.id, month, limit - 1, Date.now())
      .run();

    const last = await api('POST', '/api/death-verification/report', { token: first.key });
    expect(last.status).toBe(202);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');

    // The quota is the user's, shared by every key.
    const now = new Date();
    const over = await api('POST', '/api/death-verification/report', { token: second.key });
    expect(over.status).toBe(429);
    expect(over.data.detail).toMatch(/Monthly API call limit reached \(100 calls/);
    const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(Math.abs(retryAfter - Math.ceil((next - now.getTime()) / 1000))).toBeLessThanOrEqual(2);
    expect(over.headers.get('x-ratelimit-limit')).toBe(String(limit));
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(over.headers.get('x-ratelimit-reset')).toBe(String(next / 1000));
    // Refused calls are not counted.
    expect(await usageCount(owner.id)).toBe(limit);
    expect((await keyUsage(second.id)).usage_count).toBe(0);

    // A bigger plan lifts the limit at once; sessions were never metered.
    await env.DB.prepare("UPDATE users SET plan = 'plus' WHERE id = ?").bind(owner.id).run();
    const lifted = await api('POST', '/api/death-verification/report', { token: second.key });
    expect(lifted.status).toBe(202);
    expect(lifted.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(lifted.headers.get('x-ratelimit-remaining')).toBe(String(1000 - limit - 1));
  });

  it('starts a new count each UTC month', async () => {
    const owner = await signedInUser();
    const { id, key } = await createKey(owner.token, ['webhook:death-verification']);
    await env.DB.prepare("INSERT INTO api_usage (key_id, user_id, month, count, last_used_at) VALUES (?, ?, '2000-01', 100, 0)").bind(id, owner.id).run();
    const res = await api('POST', '/api/death-verification/report', { token: key });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('99');
  });

  it('yields a key principal {user, via: key, keyId, scopes, sandbox} whose sessionId cannot be read', async () => {
    const owner = await signedInUser();
    const sandboxKey = await createKey(owner.token, ['webhook:death-verification', 'read:canary'], true);
    expect(sandboxKey.key).toMatch(/^afw_test_/);
    expect(sandboxKey.sandbox).toBe(true);
    const app = new Hono<AppEnv>();
    app.use('*', requestContext, authenticate);
    app.post('/api/death-verification/report', (c) => {
      const p = c.get('principal')!;
      let sessionRead = 'no error';
      try {
        void p.sessionId;
      } catch (err) {
        sessionRead = (err as Error).message;
      }
      return c.json({ ...p, user: p.user.id, sessionRead });
    });
    app.onError(handleError);
    const res = await app.request('/api/death-verification/report', { method: 'POST', headers: { authorization: `Bearer ${sandboxKey.key}` } }, env);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      user: owner.id,
      via: 'key',
      keyId: sandboxKey.id,
      scopes: ['read:canary', 'webhook:death-verification'],
      sandbox: true,
      sessionRead: KEYS_CANNOT_MANAGE,
    });
    expect(res.headers.get('x-ratelimit-remaining')).toBe('99');
    const listed = (await api('GET', '/api/developer/keys', { token: owner.token })).data;
    expect(listed[0]).toMatchObject({ id: sandboxKey.id, sandbox: true, prefix: expect.stringMatching(/^afw_test_/) });
  });
});

describe('read:canary with a key, and the session path unchanged', () => {
  it('GET /api/canary/status and /api/canary/list answer the key owner’s data', async () => {
    const owner = await signedInUser();
    const canary = await api('POST', '/api/canary/create', { token: owner.token, json: { interval_seconds: 3600, name: 'daily' } });
    expect(canary.status).toBe(201);
    const { key } = await createKey(owner.token, ['read:canary']);
    const status = await api('GET', '/api/canary/status', { token: key });
    expect(status.status).toBe(200);
    expect(status.data.canary_id).toBe(canary.data.id);
    expect(status.headers.get('x-ratelimit-remaining')).toBe('99');
    const list = await api('GET', '/api/canary/list', { token: key });
    expect(list.status).toBe(200);
    expect(list.data.map((c: { id: string }) => c.id)).toEqual([canary.data.id]);
    // read:canary does not open messages.
    const messages = await api('GET', '/api/message/pending', { token: key });
    expect(messages.status).toBe(403);
    expect(messages.data.detail).toBe(keyMissingScope('read:messages'));
    // …nor creating a canary.
    expect((await api('POST', '/api/canary/create', { token: key, json: {} })).status).toBe(403);
  });

  it('sessions are not metered and carry no X-RateLimit headers', async () => {
    const owner = await signedInUser();
    const res = await api('GET', '/api/canary/status', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    expect(await usageCount(owner.id)).toBeNull();
    // A bad session token still leaves the principal empty (401 from the route, not from the middleware).
    const bad = await api('GET', '/api/canary/status', { token: 'not-a-session' });
    expect(bad.status).toBe(401);
    expect(bad.data.detail).toBe('Not authenticated');
    expect((await api('GET', '/api/health', { token: 'not-a-session' })).status).toBe(200);
  });

  it('a key call costs the same D1 round trips as a session call (one read to authenticate; the count is written after the answer)', async () => {
    const owner = await signedInUser();
    await api('POST', '/api/canary/create', { token: owner.token, json: { interval_seconds: 3600 } });
    const { key } = await createKey(owner.token, ['read:canary']);
    const session = await countedCall('GET', '/api/canary/status', owner.token);
    const viaKey = await countedCall('GET', '/api/canary/status', key);
    expect(session.res.status).toBe(200);
    expect(viaKey.res.status).toBe(200);
    expect(viaKey.data).toEqual(session.data);
    expect(viaKey.trips).toEqual(session.trips);
    // No D1 write on the request path: the call waits in the usage buffer, written after the answer.
    expect(viaKey.trips).not.toContain('batch');
    expect(viaKey.trips).not.toContain('run');
    expect(viaKey.res.headers.get('x-ratelimit-remaining')).toBe('99');
    expect(await usageCount(owner.id)).toBe(1);
  });
});
