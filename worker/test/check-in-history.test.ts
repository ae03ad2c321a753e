import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { clockOf } from '../src/domains/canary/canary-timer';
import { checkInSender } from '../src/domains/canary/check-in-sender';
import { KEEP_CHECK_INS } from '../src/durable/check-in-log';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor } from './helpers/canary';

/**
 * The feed's lines of token, ping and link check-ins live in each canary's object, which keeps its last
 * KEEP_CHECK_INS check-ins; D1 stores no row for each (docs/decisions/check-in-history.md). The owner sees the
 * same feed as before: every line at once, newest first, once each — also after the canary is deleted.
 */
type Line = { id: string; kind: string; source: string | null; canary_id: string | null; summary: string; created_at: string };
const feedOf = async (token: string, limit = 100) => (await api('GET', `/api/activity?limit=${limit}`, { token })).data as Line[];
const checkInRowsInD1 = async (userId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM activity WHERE user_id = ? AND kind = 'check_in'").bind(userId).first<{ n: number }>())!.n;

describe("a canary's check-in history", () => {
  it('a token check-in shows in the feed at once and writes no feed row in D1, only its canary’s last check-in', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600, name: 'Backups' });
    const res = await api('POST', `/api/ping/${canary.token}`);
    expect(res.status).toBe(200);
    expect((await feedOf(owner.token))[0]).toEqual({
      id: expect.any(String),
      kind: 'check_in',
      source: 'ping',
      canary_id: canary.id,
      summary: 'Checked in by a heartbeat ping: "Backups".',
      created_at: res.data.last_check_in,
    });
    await checkInSender(); // the Worker's write of the check-in into D1, after the answer
    const row = await env.DB.prepare('SELECT last_check_in FROM canaries WHERE id = ?').bind(canary.id).first<{ last_check_in: number }>();
    expect(row!.last_check_in).toBe(Date.parse(res.data.last_check_in));
    expect(await checkInRowsInD1(owner.id)).toBe(0);
  });

  it('merges the objects’ lines with D1’s, newest first: token check-ins of two canaries between the Heartbeat’s', async () => {
    const owner = await signedInUser();
    await env.DB.prepare("UPDATE users SET plan = 'pro' WHERE id = ?").bind(owner.id).run();
    const daily = await createCanaryFor(owner.token, { interval_seconds: 86_400, name: 'Daily' });
    const weekly = await createCanaryFor(owner.token, { interval_seconds: 7 * 86_400, name: 'Weekly' });
    const said: string[] = [];
    // Each step a millisecond after the last, so the feed's order is theirs (lines are dated to the millisecond).
    const tick = () => scheduler.wait(2);
    const heartbeat = async () => {
      expect((await api('POST', '/api/canary/checkin', { token: owner.token, json: {} })).status).toBe(200);
      said.push('Checked in with the button in the app: "Daily", "Weekly".');
      await tick();
    };
    const ping = async (c: { token: string }, name: string) => {
      expect((await api('POST', `/api/ping/${c.token}`)).status).toBe(200);
      said.push(`Checked in by a heartbeat ping: "${name}".`);
      await tick();
    };
    await heartbeat();
    await ping(daily, 'Daily');
    await ping(weekly, 'Weekly');
    await heartbeat();
    await ping(daily, 'Daily');
    const lines = (await feedOf(owner.token)).filter((l) => l.kind === 'check_in');
    expect(lines.map((l) => l.summary)).toEqual(said.reverse());
    expect(new Set(lines.map((l) => l.id)).size).toBe(lines.length);
    // A shorter feed is the newest of the same lines.
    expect((await feedOf(owner.token, 2)).map((l) => l.summary)).toEqual(said.slice(0, 2));
  });

  it('keeps the lines of a deleted canary’s check-ins in the feed, each once', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600, name: 'Old phone' });
    for (let i = 0; i < 3; i++) {
      expect((await api('POST', `/api/ping/${canary.token}`)).status).toBe(200);
      await scheduler.wait(2);
    }
    const before = (await feedOf(owner.token)).filter((l) => l.kind === 'check_in');
    expect(before).toHaveLength(3);
    expect((await api('DELETE', `/api/canary/${canary.id}`, { token: owner.token })).status).toBe(200);
    const after = await feedOf(owner.token);
    expect(after[0]).toMatchObject({ kind: 'canary_deleted', summary: 'Deleted canary "Old phone".' });
    expect(after.filter((l) => l.kind === 'check_in')).toEqual(before);
    expect(await checkInRowsInD1(owner.id)).toBe(3);
  });

  it(`keeps a canary's last ${KEEP_CHECK_INS} check-ins: the feed's oldest go when newer come`, async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const t0 = Date.now();
    const entries = Array.from({ length: KEEP_CHECK_INS + 5 }, (_, i) => ({ event_id: crypto.randomUUID(), at: t0 + i * 1000, source: 'ping' as const }));
    // As D1 already had them (a check-in still owed to D1 is always kept): the object's own record is all there is.
    for (const e of entries) await clockOf(env, canary.id).noteCheckIn(canary.id, e);
    const held = await clockOf(env, canary.id).recentCheckIns(1000);
    expect(held!.check_ins.map((c) => c.event_id)).toEqual(
      entries
        .slice(5)
        .reverse()
        .map((e) => e.event_id),
    );
    expect((await feedOf(owner.token)).map((l) => l.id)).toEqual(
      entries
        .slice(-100)
        .reverse()
        .map((e) => e.event_id),
    );
  });

  it("is the owner's alone: another user's feed shows none of it", async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    expect((await api('POST', `/api/ping/${canary.token}`)).status).toBe(200);
    expect((await feedOf(outsider.token)).filter((l) => l.kind === 'check_in')).toEqual([]);
  });
});
