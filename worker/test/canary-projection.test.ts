import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { ClockCheckIn } from '../src/durable/canary-clock';
import { clockOf, settleCanaries } from '../src/domains/canary/canary-timer';
import { legacyCanaryToken } from '../src/domains/canary/canary-token';
import { checkInWithToken } from '../src/domains/canary/check-in';
import { applyProjections } from '../src/domains/canary/projection-batch';
import { advanceMessage } from '../src/domains/messages/release/advance-message';
import { createServiceContext } from '../src/env';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor, servicesAt, transitionsOf } from './helpers/canary';
import { captureQueues, createMessageFor, messageRow, transitionCauses } from './helpers/messages';
import { insideClock, queueDown } from './helpers/canary-clock';

/**
 * Issue 19: each canary's Durable Object is the record of its clock; D1 is its projection, written
 * through the PROJECTIONS queue. These tests hold the promise while that projection lags, is lost,
 * duplicated or reordered, and count the D1 calls on the token check-in's path.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A D1 binding that counts every call that reaches the database. */
function countingD1(real: D1Database) {
  const calls: string[] = [];
  const wrapStatement = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop) {
        if (prop === 'bind') return (...args: unknown[]) => wrapStatement(target.bind(...args), sql);
        if (prop === 'first' || prop === 'all' || prop === 'run' || prop === 'raw')
          return (...args: unknown[]) => {
            calls.push(sql);
            return (target[prop] as (...a: unknown[]) => unknown).apply(target, args);
          };
        return Reflect.get(target, prop);
      },
    });
  const db = new Proxy(real, {
    get(target, prop) {
      if (prop === 'prepare') return (sql: string) => wrapStatement(target.prepare(sql), sql);
      if (prop === 'batch' || prop === 'exec' || prop === 'dump')
        return (...args: unknown[]) => {
          calls.push(String(prop));
          return (target[prop] as (...a: unknown[]) => unknown).apply(target, args);
        };
      return Reflect.get(target, prop);
    },
  });
  return { db, calls };
}

const lastCheckInInD1 = async (canaryId: string) =>
  (await env.DB.prepare('SELECT last_check_in FROM canaries WHERE id = ?').bind(canaryId).first<{ last_check_in: number }>())!.last_check_in;

describe('a token check-in at the edge', () => {
  it('makes no D1 call on its path: the Worker verifies the token, the object records it', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const worker = countingD1(env.DB);
    const result = await checkInWithToken(createServiceContext({ ...env, DB: worker.db }), canary.token, 'ping');
    expect(result.checked_in).toBe(1);
    expect(worker.calls).toEqual([]);

    const object = countingD1(env.DB);
    const accepted = await insideClock(canary.id, { DB: object.db }, (clock) =>
      clock.checkIn(canary.id, 1, { event_id: crypto.randomUUID(), at: Date.now(), source: 'ping' }),
    );
    expect(accepted).toEqual({ interval_seconds: 3600 });
    expect(object.calls).toEqual([]);
  });

  it('a token from before v2 (the MAC alone) still checks in, found by its hash', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const legacy = await legacyCanaryToken(env, canary.id, 1);
    expect(legacy).toMatch(/^[\w-]{43}$/);
    const res = await api('POST', `/api/ping/${legacy}`);
    expect(res.status).toBe(200);
    expect(res.data.canaries).toEqual([{ id: canary.id, deadline: expect.any(String) }]);
  });

  it('a forged v2 token (another canary id under the same MAC) fails with 404 before any object is asked', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const bytes = Uint8Array.from(atob(canary.token.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    bytes[0] = bytes[0]! ^ 1;
    const forged = btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    expect((await api('POST', `/api/ping/${forged}`)).status).toBe(404);
  });

  it('after a delete the object refuses the token at once, with no D1 call', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    expect((await api('DELETE', `/api/canary/${canary.id}`, { token: owner.token })).status).toBe(200);
    const worker = countingD1(env.DB);
    await expect(checkInWithToken(createServiceContext({ ...env, DB: worker.db }), canary.token, 'ping')).rejects.toMatchObject({ status: 404 });
    expect(worker.calls).toEqual([]);
    expect((await api('POST', `/api/ping/${canary.token}`)).status).toBe(404);
  });
});

/** An owner with a weekly canary and a message armed by its fixed date (a two-day cancel window). */
async function armedMessage() {
  const sender = await signedInUser();
  const recipient = await signedInUser();
  const canary = await createCanaryFor(sender.token, { interval_seconds: 7 * 24 * 3600 });
  const day = new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);
  const dueAt = Date.parse(`${day}T00:00:00Z`);
  const m = await createMessageFor(sender.token, {
    recipient_user_id: recipient.id,
    rules: [{ trigger_type: 'fixed_date', trigger_value: day, expire_window: 2 }],
  });
  await captureQueues(() => advanceMessage(servicesAt(dueAt + 5), m.id, 'direct'));
  return { canary, m, dueAt };
}

describe('the D1 projection may lag; the promise does not move', () => {
  it('a check-in whose projection was lost still disarms an armed message: the release engine settles first', async () => {
    const { canary, m, dueAt } = await armedMessage();
    expect((await messageRow(m.id))!.status).toBe('armed');

    // The owner checks in inside the window; the object records it, but the queue is down: D1 never hears.
    const checkIn: ClockCheckIn = { event_id: crypto.randomUUID(), at: dueAt + DAY, source: 'ping' };
    await insideClock(canary.id, { PROJECTIONS: queueDown }, async (clock) => {
      expect(await clock.checkIn(canary.id, 1, checkIn)).not.toBeNull();
    });
    expect((await messageRow(m.id))!.status).toBe('armed');

    const released = await captureQueues(() => advanceMessage(servicesAt(dueAt + 3 * DAY), m.id, 'direct'));
    expect((await messageRow(m.id))!.status).toBe('scheduled');
    expect(released.jobs.filter((j) => j.body.type === 'deliver')).toEqual([]);
    expect(await transitionCauses(m.id)).toEqual(['∅→scheduled:created', 'scheduled→armed:rule_fired', 'armed→scheduled:check_in']);
  });

  it('a wake at the deadline records no miss for a check-in D1 has not seen: the engine runs on the object, not on D1', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const start = Date.now() - 0.9 * HOUR;
    // The cycle began 0.9 h ago (both the record and its copy); then a check-in reaches only the object.
    await env.DB.prepare('UPDATE canaries SET last_check_in = ? WHERE id = ?').bind(start, canary.id).run();
    await runInDurableObject(clockOf(env, canary.id), async (_: unknown, state: DurableObjectState) => {
      state.storage.sql.exec('UPDATE canary_clock SET last_check_in = ?, timer_due_at = ?', start, start + 0.8 * HOUR);
    });
    await insideClock(canary.id, { PROJECTIONS: queueDown }, (clock) =>
      clock.checkIn(canary.id, 1, { event_id: crypto.randomUUID(), at: Date.now(), source: 'ping' }),
    );
    // D1 still says the grace period began 6 minutes ago; the object knows better, and its wake goes by it.
    expect(await lastCheckInInD1(canary.id)).toBe(start);
    expect(await runDurableObjectAlarm(clockOf(env, canary.id))).toBe(true);
    await settleCanaries(env, [canary.id], null, { events: true });
    expect(await transitionsOf(canary.id)).toEqual([]);
    expect(await lastCheckInInD1(canary.id)).toBeGreaterThan(start + 0.85 * HOUR);
  });

  it('a projection delivered twice and out of order moves last_check_in only forward and writes each activity row once', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const t0 = Date.now() + HOUR;
    const early = { type: 'canary_check_in' as const, canary_id: canary.id, event_id: crypto.randomUUID(), at: t0, source: 'ping' as const };
    const late = { ...early, event_id: crypto.randomUUID(), at: t0 + HOUR };
    await applyProjections(env, [late]);
    await applyProjections(env, [early, late, early]);
    expect(await lastCheckInInD1(canary.id)).toBe(t0 + HOUR);
    const { results } = await env.DB.prepare("SELECT id FROM activity WHERE canary_id = ? AND kind = 'check_in' ORDER BY created_at")
      .bind(canary.id)
      .all<{ id: string }>();
    expect(results.map((r) => r.id)).toEqual([early.event_id, late.event_id]);
  });

  it('a redelivered old check-in cannot disarm a message armed after it', async () => {
    const { canary, m, dueAt } = await armedMessage();
    const old = { type: 'canary_check_in' as const, canary_id: canary.id, event_id: crypto.randomUUID(), at: dueAt - HOUR, source: 'ping' as const };
    await applyProjections(env, [old]);
    expect((await messageRow(m.id))!.status).toBe('armed');
  });

  it('settling an object that holds no check-in writes nothing', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const before = await lastCheckInInD1(canary.id);
    await settleCanaries(env, [canary.id]);
    expect(await lastCheckInInD1(canary.id)).toBe(before);
  });
});
