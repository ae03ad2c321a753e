import { createDb } from '@afterword/db';
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { PLAN_LIMITS } from '../src/contracts/plans';
import { flushPendingUsage, pendingCalls, pendingForKey, recordKeyCall } from '../src/domains/developer/usage-buffer';
import { api, signedInUser } from './helpers/api';

/**
 * The usage buffer (domains/developer/usage-buffer.ts): accepted key calls are counted in the isolate and
 * written to D1 after the answer, many at once. These tests hold it to "every accepted call counted
 * once, no call past the quota", whatever the timing of the writes.
 */
const db = () => createDb(env.DB);
const month = () => new Date().toISOString().slice(0, 7);
const storedCount = async (userId: string) =>
  (await env.DB.prepare('SELECT coalesce(sum(count), 0) AS n FROM api_usage WHERE user_id = ? AND month = ?').bind(userId, month()).first<{ n: number }>())!.n;

async function ownerWithKey() {
  const owner = await signedInUser();
  const res = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'buffer', scopes: ['read:canary'] } });
  expect(res.status).toBe(201);
  return { owner, keyId: res.data.id as string, key: res.data.key as string };
}

describe('API usage buffer', () => {
  it('concurrent calls near the quota: exactly the remaining budget is accepted, and D1 ends at the limit', async () => {
    const { owner, keyId, key } = await ownerWithKey();
    const limit = PLAN_LIMITS.free.apiCallsPerMonth;
    await env.DB.prepare('INSERT INTO api_usage (key_id, user_id, month, count, last_used_at) VALUES (?, ?, ?, ?, ?)')
      .bind(keyId, owner.id, month(), limit - 5, Date.now())
      .run();
    const answers = await Promise.all(Array.from({ length: 12 }, () => api('GET', '/api/canary/status', { token: key })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    await flushPendingUsage(db());
    expect(await storedCount(owner.id)).toBe(limit);
    expect(pendingCalls(owner.id, month())).toBe(0);
  });

  it('a counted call shows on the key list before D1 has it, and once D1 has it, not twice', async () => {
    const { owner, keyId } = await ownerWithKey();
    const now = Date.now();
    // Straight into the buffer, as the middleware does, without letting its flusher run first.
    const write = recordKeyCall(db(), { keyId, userId: owner.id, month: month(), lastUsedAt: now });
    expect(pendingForKey(keyId)).toEqual({ count: 1, lastUsedAt: now });
    const listed = (await api('GET', '/api/developer/keys', { token: owner.token })).data[0];
    expect(listed.usage_count).toBe(1);
    expect(Date.parse(listed.last_used_at)).toBe(now);
    await flushPendingUsage(db());
    await write;
    expect(pendingForKey(keyId).count).toBe(0);
    expect(await storedCount(owner.id)).toBe(1);
    expect((await api('GET', '/api/developer/keys', { token: owner.token })).data[0].usage_count).toBe(1);
  });

  it('a failed write keeps the counts for the next one', async () => {
    const { owner, keyId } = await ownerWithKey();
    const flusher = recordKeyCall(db(), { keyId, userId: owner.id, month: month(), lastUsedAt: Date.now() });
    const broken = new Proxy(db(), {
      get: (target, prop) => (prop === 'batch' ? () => Promise.reject(new Error('D1 unavailable')) : Reflect.get(target, prop, target)),
    });
    await flushPendingUsage(broken);
    // Checked at once (the buffer's own flusher waits 50 ms before it writes).
    expect(pendingForKey(keyId).count).toBe(1);
    await flushPendingUsage(db());
    await flusher;
    expect(pendingForKey(keyId).count).toBe(0);
    expect(await storedCount(owner.id)).toBe(1);
  });

  it('the count of a key whose account is gone is dropped, not an error that blocks the others', async () => {
    const gone = await ownerWithKey();
    const kept = await ownerWithKey();
    const flushers = [
      recordKeyCall(db(), { keyId: gone.keyId, userId: gone.owner.id, month: month(), lastUsedAt: Date.now() }),
      recordKeyCall(db(), { keyId: kept.keyId, userId: kept.owner.id, month: month(), lastUsedAt: Date.now() }),
    ];
    await env.DB.prepare('DELETE FROM users WHERE id = ?').bind(gone.owner.id).run();
    await flushPendingUsage(db());
    await Promise.all(flushers);
    expect(pendingForKey(gone.keyId).count).toBe(0);
    expect(await storedCount(kept.owner.id)).toBe(1);
    expect(await storedCount(gone.owner.id)).toBe(0);
  });

  it('one flusher at a time: the first call hands back the write, later calls ride on it, and it writes them all', async () => {
    const { owner, keyId } = await ownerWithKey();
    // The earlier tests awaited their flushers, so none is on its way now.
    const at = Date.now();
    const write = recordKeyCall(db(), { keyId, userId: owner.id, month: month(), lastUsedAt: at });
    expect(write).toBeInstanceOf(Promise);
    expect(recordKeyCall(db(), { keyId, userId: owner.id, month: month(), lastUsedAt: at + 1 })).toBeNull();
    expect(recordKeyCall(db(), { keyId, userId: owner.id, month: month(), lastUsedAt: at + 2 })).toBeNull();
    expect(pendingCalls(owner.id, month())).toBe(3);
    await write;
    expect(pendingCalls(owner.id, month())).toBe(0);
    expect(await storedCount(owner.id)).toBe(3);
    const row = await env.DB.prepare('SELECT last_used_at FROM api_usage WHERE key_id = ?').bind(keyId).first<{ last_used_at: number }>();
    expect(row!.last_used_at).toBe(at + 2);
    // The next call starts a new flusher.
    const next = recordKeyCall(db(), { keyId, userId: owner.id, month: month(), lastUsedAt: at + 3 });
    expect(next).toBeInstanceOf(Promise);
    await next;
    expect(await storedCount(owner.id)).toBe(4);
  });

  it('overlapping writes never count a call twice', async () => {
    const { owner, keyId } = await ownerWithKey();
    const flusher = recordKeyCall(db(), { keyId, userId: owner.id, month: month(), lastUsedAt: Date.now() });
    await Promise.all([flushPendingUsage(db()), flushPendingUsage(db()), flushPendingUsage(db())]);
    await flusher;
    expect(await storedCount(owner.id)).toBe(1);
    expect(pendingForKey(keyId).count).toBe(0);
  });
});
