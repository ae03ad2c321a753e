import { env, runInDurableObject } from 'cloudflare:test';
import { clockOf } from '../src/domains/canary/canary-timer';
import { checkInWithQueueDown } from './helpers/canary-clock';
import { describe, expect, it } from 'vitest';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor } from './helpers/canary';
import { readCanaryToken } from '../src/domains/canary/canary-token';

describe('creating canaries', () => {
  it('creates a canary with a 256-bit token, a deadline one interval away and an armed timer', async () => {
    const owner = await signedInUser();
    const res = await api('POST', '/api/canary/create', { token: owner.token, json: { interval_seconds: 7200, name: 'Daily walk' } });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ name: 'Daily walk', interval_seconds: 7200, active: true, status: 'active', misses: 0 });
    // v2: the canary's id and token version in the clear, then the 256-bit MAC (canary-token.ts).
    expect(res.data.token).toMatch(/^[\w-]{70}$/);
    expect(await readCanaryToken(env, res.data.token)).toEqual({ form: 'v2', canaryId: res.data.id, version: 1 });
    expect(Date.parse(res.data.deadline) - Date.parse(res.data.last_check_in)).toBe(7200_000);
    const row = await env.DB.prepare('SELECT token_hash, timer_due_at FROM canaries WHERE id = ?')
      .bind(res.data.id)
      .first<{ token_hash: string; timer_due_at: number }>();
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.token_hash).not.toContain(res.data.token);
    // The first wake is the grace-entry reminder, at 80 % of the interval.
    expect(row?.timer_due_at).toBe(Date.parse(res.data.last_check_in) + 0.8 * 7200_000);
  });

  it('defaults the interval to 24 hours and the name to empty', async () => {
    const owner = await signedInUser();
    const res = await api('POST', '/api/canary/create', { token: owner.token, json: {} });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ interval_seconds: 86400, name: '' });
  });

  it.each([
    ['0', 0],
    ['negative', -60],
    ['59 seconds', 59],
    ['over 400 days', 34_560_001],
    ['fractional', 90.5],
    ['a string', '3600'],
    ['null', null],
    ['huge', 1e300],
  ])('refuses an interval that is %s with 422', async (_name, interval_seconds) => {
    const owner = await signedInUser();
    const res = await api('POST', '/api/canary/create', { token: owner.token, json: { interval_seconds } });
    expect(res.status).toBe(422);
    expect(res.data.detail[0].loc).toEqual(['body', 'interval_seconds']);
  });

  it('accepts the bounds 60 and 34,560,000 seconds', async () => {
    const owner = await signedInUser({});
    await env.DB.prepare("UPDATE users SET plan = 'pro' WHERE id = ?").bind(owner.id).run();
    for (const interval_seconds of [60, 34_560_000]) {
      expect((await api('POST', '/api/canary/create', { token: owner.token, json: { interval_seconds } })).status).toBe(201);
    }
  });

  it('holds the Free plan to one canary and Plus to three, naming the plan and the upgrade', async () => {
    const owner = await signedInUser();
    await createCanaryFor(owner.token);
    const second = await api('POST', '/api/canary/create', { token: owner.token, json: {} });
    expect(second.status).toBe(403);
    expect(second.data.detail).toBe('Your Free plan allows 1 canary. Upgrade to Plus for 3 canaries, or to Pro for unlimited canaries.');
    await env.DB.prepare("UPDATE users SET plan = 'plus' WHERE id = ?").bind(owner.id).run();
    await createCanaryFor(owner.token);
    await createCanaryFor(owner.token);
    const fourth = await api('POST', '/api/canary/create', { token: owner.token, json: {} });
    expect(fourth.status).toBe(403);
    expect(fourth.data.detail).toMatch(/^Your Plus plan allows 3 canaries\. Upgrade to Pro/);
  });

  it('needs a session', async () => {
    expect((await api('POST', '/api/canary/create', { json: {} })).status).toBe(401);
  });
});

describe('listing, status and deleting', () => {
  it('lists only the caller’s canaries, with token, deadline and status', async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    await createCanaryFor(outsider.token);
    const list = await api('GET', '/api/canary/list', { token: owner.token });
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ id: canary.id, token: canary.token, active: true, status: 'active', name: '' });
  });

  it('reports status for the canary with the earliest deadline, and nulls for none', async () => {
    const owner = await signedInUser();
    expect((await api('GET', '/api/canary/status', { token: owner.token })).data).toMatchObject({
      last_check_in: null,
      interval_seconds: null,
      missed: false,
      deadline: null,
      misses: 0,
    });
    await env.DB.prepare("UPDATE users SET plan = 'pro' WHERE id = ?").bind(owner.id).run();
    await createCanaryFor(owner.token, { interval_seconds: 7200 });
    const soon = await createCanaryFor(owner.token, { interval_seconds: 600 });
    const status = await api('GET', '/api/canary/status', { token: owner.token });
    expect(status.data).toMatchObject({ canary_id: soon.id, interval_seconds: 600, missed: false, misses: 0, deadline: soon.deadline });
  });

  it('shows missed and the number of misses once deadlines have passed', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 600 });
    // The object is the record of the clock and D1 its copy: both move back 2.5 intervals.
    const back = Date.now() - 2.5 * 600_000;
    await env.DB.prepare('UPDATE canaries SET last_check_in = ? WHERE id = ?').bind(back, canary.id).run();
    await runInDurableObject(clockOf(env, canary.id), (_, state) => {
      state.storage.sql.exec('UPDATE canary_clock SET last_check_in = ?', back);
    });
    const status = await api('GET', '/api/canary/status', { token: owner.token });
    expect(status.data).toMatchObject({ missed: true, misses: 2, status: 'missed' });
  });

  it('shows a token check-in on the very next read, before its projection reaches D1', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 600 });
    // The object accepts the check-in; its projection never leaves (the PROJECTIONS queue is down).
    const later = Date.parse(canary.last_check_in) + 5000;
    await checkInWithQueueDown(canary.id, later);
    const row = await env.DB.prepare('SELECT last_check_in FROM canaries WHERE id = ?').bind(canary.id).first<{ last_check_in: number }>();
    expect(row?.last_check_in, 'D1 has not heard of it').toBe(Date.parse(canary.last_check_in));
    const status = await api('GET', '/api/canary/status', { token: owner.token });
    expect(status.data).toMatchObject({
      canary_id: canary.id,
      last_check_in: new Date(later).toISOString(),
      deadline: new Date(later + 600_000).toISOString(),
    });
    const list = await api('GET', '/api/canary/list', { token: owner.token });
    expect(list.data[0]).toMatchObject({ id: canary.id, last_check_in: new Date(later).toISOString() });
  });

  it('answers 404 to an outsider deleting the owner’s canary, and to a malformed id', async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    expect((await api('DELETE', `/api/canary/${canary.id}`, { token: outsider.token })).status).toBe(404);
    expect((await api('DELETE', '/api/canary/not-a-uuid', { token: owner.token })).status).toBe(404);
    expect((await api('GET', '/api/canary/list', { token: owner.token })).data).toHaveLength(1);
  });

  it('deletes the canary: its token stops working at once', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    expect((await api('DELETE', `/api/canary/${canary.id}`, { token: owner.token })).status).toBe(200);
    expect((await api('GET', '/api/canary/list', { token: owner.token })).data).toEqual([]);
    const checkIn = await api('POST', '/api/canary/checkin', { json: { token: canary.token } });
    expect(checkIn.status).toBe(404);
    expect(checkIn.data).toEqual({ detail: 'No canary has this token' });
  });
});

describe('checking in', () => {
  it('checks in with the token alone, without a session', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    await env.DB.prepare('UPDATE canaries SET last_check_in = ? WHERE id = ?')
      .bind(Date.now() - 1_000_000, canary.id)
      .run();
    const res = await api('POST', '/api/canary/checkin', { json: { token: canary.token } });
    expect(res.status).toBe(200);
    expect(res.data.checked_in).toBe(1);
    expect(Date.now() - Date.parse(res.data.last_check_in)).toBeLessThan(5000);
    const activity = await api('GET', '/api/activity', { token: owner.token });
    expect(activity.data[0]).toMatchObject({ kind: 'check_in', source: 'token', canary_id: canary.id });
  });

  it('with a session and no token, checks in every active canary of the user', async () => {
    const owner = await signedInUser();
    await env.DB.prepare("UPDATE users SET plan = 'pro' WHERE id = ?").bind(owner.id).run();
    await createCanaryFor(owner.token);
    await createCanaryFor(owner.token);
    const res = await api('POST', '/api/canary/checkin', { token: owner.token, json: {} });
    expect(res.status).toBe(200);
    expect(res.data.checked_in).toBe(2);
    expect((await api('GET', '/api/activity', { token: owner.token })).data[0]).toMatchObject({ kind: 'check_in', source: 'web' });
  });

  it('needs a token or a session', async () => {
    expect((await api('POST', '/api/canary/checkin', { json: {} })).status).toBe(401);
  });

  it.each([
    ['a bogus token', 'x'.repeat(43)],
    ['a malformed token', 'short'],
    ['a token of the wrong length', 'A'.repeat(44)],
  ])('refuses %s with 404', async (_name, token) => {
    const res = await api('POST', '/api/canary/checkin', { json: { token } });
    expect(res.status).toBe(404);
    expect(res.data).toEqual({ detail: 'No canary has this token' });
  });

  it('refuses a second spelling of a real token (non-zero trailing bits in its last character) with 404', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(canary.token.at(-1)!);
    const respelled = canary.token.slice(0, -1) + alphabet[last + 1];
    const res = await api('POST', '/api/canary/checkin', { json: { token: respelled } });
    expect(res.status).toBe(404);
    expect(res.data).toEqual({ detail: 'No canary has this token' });
  });

  it('checks in by POST /api/ping/{token}, recorded as source ping', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const res = await api('POST', `/api/ping/${canary.token}`);
    expect(res.status).toBe(200);
    expect((await api('GET', '/api/activity', { token: owner.token })).data[0]).toMatchObject({ kind: 'check_in', source: 'ping' });
  });

  it('never checks in on GET /api/ping/{token}: 405 with Allow: POST', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const before = await env.DB.prepare('SELECT last_check_in FROM canaries WHERE id = ?').bind(canary.id).first<{ last_check_in: number }>();
    const res = await api('GET', `/api/ping/${canary.token}`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.data.detail).toMatch(/must be a POST/);
    const after = await env.DB.prepare('SELECT last_check_in FROM canaries WHERE id = ?').bind(canary.id).first<{ last_check_in: number }>();
    expect(after?.last_check_in).toBe(before?.last_check_in);
  });

  it('never writes a canary token into the logs', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const lines: string[] = [];
    const spies = (['log', 'warn', 'error'] as const).map((m) => {
      const original = console[m];
      console[m] = (...args: unknown[]) => {
        lines.push(args.map(String).join(' '));
      };
      return () => {
        console[m] = original;
      };
    });
    try {
      await api('POST', `/api/ping/${canary.token}`);
      await api('GET', `/api/ping/${canary.token}`);
      await api('POST', '/api/canary/checkin', { json: { token: canary.token } });
    } finally {
      for (const restore of spies) restore();
    }
    expect(lines.join('\n')).not.toContain(canary.token);
  });
});
