import { createExecutionContext, createMessageBatch, env, getQueueResult, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { CanaryClock, type ClockCheckIn } from '../src/durable/canary-clock';
import { ensureClockTables } from '../src/durable/clock-tables';
import { clockOf, settleCanaries } from '../src/domains/canary/canary-timer';
import { legacyCanaryToken } from '../src/domains/canary/canary-token';
import { checkInAll, checkInWithToken } from '../src/domains/canary/check-in';
import { checkInSender, queueCheckInProjection } from '../src/domains/canary/check-in-sender';
import { applyProjections } from '../src/domains/canary/projection-batch';
import { deleteCanary } from '../src/domains/canary/delete-canary';
import { advanceMessage } from '../src/domains/messages/release/advance-message';
import { consumeBatch } from '../src/queues/consume';
import { reconcileCanaries } from '../src/cron/reconcile-canaries';
import { advanceCanary } from '../src/domains/canary/advance-canary';
import { createServiceContext } from '../src/wiring/service-context';
import { listRecentActivity } from '../src/domains/activity/list-activity';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor, servicesAt, transitionsOf } from './helpers/canary';
import { captureQueues, createMessageFor, messageRow, transitionCauses } from './helpers/messages';
import { dbRefusingBatches, insideClock, queueDown, queueLosing, queueRecording, statementsRunBy } from './helpers/canary-clock';
import { countingD1 } from './helpers/counting-d1';

/**
 * Each canary's Durable Object is the record of its clock; D1 is its projection, written
 * through the PROJECTIONS queue. These tests hold the promise while that projection lags, is lost,
 * duplicated or reordered, and count the D1 calls on the token check-in's path.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const clock = (canaryId: string) => clockOf(env, canaryId);
const lastCheckInInD1 = async (canaryId: string) =>
  (await env.DB.prepare('SELECT last_check_in FROM canaries WHERE id = ?').bind(canaryId).first<{ last_check_in: number }>())!.last_check_in;
/** D1's own feed lines of a canary's check-ins: none for those its object answered (docs/decisions/check-in-history.md). */
const checkInLinesInD1 = async (canaryId: string) =>
  (await env.DB.prepare("SELECT id FROM activity WHERE canary_id = ? AND kind = 'check_in'").bind(canaryId).all<{ id: string }>()).results.map((r) => r.id);
/** The ids of the check-in lines the owner's feed shows, newest first. */
const feedCheckIns = async (userId: string) =>
  (await listRecentActivity(createServiceContext(env), userId, 100)).filter((a) => a.kind === 'check_in').map((a) => a.id);
/** Where each check-in its object holds stands with D1, oldest first (its log: durable/check-in-log.ts). */
const standingsHeldBy = (canaryId: string) =>
  runInDurableObject(clock(canaryId), async (_: unknown, state: DurableObjectState) =>
    (JSON.parse(state.storage.sql.exec<{ check_ins: string }>('SELECT check_ins FROM canary_clock').one().check_ins) as [string, number, string, number][]).map(
      (e) => ['owed', 'sent', 'applied'][e[3]],
    ),
  );

/** A fixed-date rule's day, three days from now, and its midnight (UTC): when the rule arms its message. */
function dueDay() {
  const day = new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);
  return { day, dueAt: Date.parse(`${day}T00:00:00Z`) };
}

/** A sender with a weekly canary and a message to `recipient` whose fixed-date rule (2 h cancel window) armed it at `dueAt` + 5 ms. */
async function senderWithArmedMessage(recipient: { id: string }, { day, dueAt }: ReturnType<typeof dueDay>) {
  const sender = await signedInUser();
  const canary = await createCanaryFor(sender.token, { interval_seconds: 7 * 24 * 3600 });
  const m = await createMessageFor(sender.token, {
    recipient_user_id: recipient.id,
    rules: [{ trigger_type: 'fixed_date', trigger_value: day, expire_window: 2 }],
  });
  await captureQueues(() => advanceMessage(servicesAt(dueAt + 5), m.id, 'direct'));
  return { canary, m };
}

describe('a token check-in at the edge', () => {
  it('makes no D1 call on its path: the Worker verifies the token, the object records it, and D1 is written after the answer', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const worker = countingD1(env.DB);
    await checkInSender(); // another test's check-ins on their way
    const deferred: Promise<unknown>[] = [];
    const result = await checkInWithToken(
      createServiceContext({ ...env, DB: worker.db }, undefined, (p) => void deferred.push(p)),
      canary.token,
      'ping',
    );
    expect(result.checked_in).toBe(1);
    expect(worker.trips).toEqual([]);
    await Promise.all(deferred);
    expect(worker.trips).toEqual(['batch']);
    expect(await lastCheckInInD1(canary.id)).toBe(Date.parse(result.last_check_in));

    const object = countingD1(env.DB);
    const accepted = await insideClock(canary.id, { DB: object.db }, (clock) =>
      clock.checkIn(canary.id, 1, { event_id: crypto.randomUUID(), at: Date.now(), source: 'ping' }),
    );
    expect(accepted).toEqual({ interval_seconds: 3600, deadline: expect.any(Number), next_wake: expect.any(Number) });
    expect(object.trips).toEqual([]);
  });

  it('the check-ins an isolate answers together are written into D1 in one batch, with no queue message', async () => {
    const canaries = [];
    for (let i = 0; i < 3; i++) canaries.push(await createCanaryFor((await signedInUser()).token));
    const projections = queueRecording();
    const d1 = countingD1(env.DB);
    const checkIns = canaries.map((c, i) => ({
      type: 'canary_check_in' as const,
      canary_id: c.id,
      event_id: crypto.randomUUID(),
      at: Date.now() + 1000 + i,
      source: 'ping' as const,
    }));
    await checkInSender(); // another test's check-ins on their way
    const ctx = createServiceContext({ ...env, DB: d1.db, PROJECTIONS: projections.queue });
    const sends = checkIns.map((p) => queueCheckInProjection(ctx, p));
    // The first becomes the sender; the others ride along with it.
    expect(sends.map((s) => s !== null)).toEqual([true, false, false]);
    await sends[0];
    expect(d1.trips).toEqual(['batch']);
    expect(projections.sends()).toBe(0);
    for (const [i, c] of canaries.entries()) expect(await lastCheckInInD1(c.id)).toBe(checkIns[i]!.at);
  });

  it('check-ins D1 does not take go to the PROJECTIONS queue, whose consumer writes them', async () => {
    const projections = queueRecording();
    const checkIn = {
      type: 'canary_check_in' as const,
      canary_id: crypto.randomUUID(),
      event_id: crypto.randomUUID(),
      at: Date.now(),
      source: 'ping' as const,
    };
    await checkInSender();
    await queueCheckInProjection(createServiceContext({ ...env, DB: dbRefusingBatches(), PROJECTIONS: projections.queue }), checkIn);
    expect(projections.bodies).toEqual([checkIn]);
  });

  it('moves its timer to the new cycle’s grace start with the check-in, and D1’s with it: no early wake is left that would only re-arm', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const armedBefore = await runInDurableObject(clock(canary.id), (_, state) => state.storage.getAlarm());
    await checkInSender(); // another test's check-ins on their way
    // Half an hour into the cycle: the wake left armed (its grace start) would come half an hour early.
    const halfAnHourOn = () => new Date(Date.now() + 0.5 * HOUR);
    const answer = await checkInWithToken(createServiceContext(env, halfAnHourOn), canary.token, 'ping');
    const at = Date.parse(answer.last_check_in);
    // The new cycle's grace starts 0.8 h after the check-in: the object's alarm and D1's timer both move there.
    expect(await runInDurableObject(clock(canary.id), (_, state) => state.storage.getAlarm())).toBe(at + 0.8 * HOUR);
    expect(at + 0.8 * HOUR).toBeGreaterThan(armedBefore!);
    const row = await env.DB.prepare('SELECT last_check_in, timer_due_at FROM canaries WHERE id = ?').bind(canary.id).first();
    expect(row).toEqual({ last_check_in: at, timer_due_at: at + 0.8 * HOUR });
  });

  it('the Heartbeat moves the timer too, and D1’s after its batch; one a minute later moves neither', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const timers = async () => ({
      alarm: await runInDurableObject(clock(canary.id), (_, state) => state.storage.getAlarm()),
      d1: await env.DB.prepare('SELECT last_check_in, timer_due_at FROM canaries WHERE id = ?').bind(canary.id).first(),
    });
    const halfAnHourOn = Date.now() + 0.5 * HOUR;
    const answer = await checkInAll(
      createServiceContext(env, () => new Date(halfAnHourOn)),
      owner.id,
      'web',
    );
    const at = Date.parse(answer.last_check_in);
    expect(await timers()).toEqual({ alarm: at + 0.8 * HOUR, d1: { last_check_in: at, timer_due_at: at + 0.8 * HOUR } });
    await checkInAll(
      createServiceContext(env, () => new Date(at + 60_000)),
      owner.id,
      'web',
    );
    expect(await timers()).toEqual({ alarm: at + 0.8 * HOUR, d1: { last_check_in: at + 60_000, timer_due_at: at + 0.8 * HOUR } });
  });

  it('leaves its alarm at a ping a minute after the last: one early wake per grace start costs less than an alarm set on every ping', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const first: ClockCheckIn = { event_id: crypto.randomUUID(), at: Date.now() + 0.5 * HOUR, source: 'ping' };
    const second: ClockCheckIn = { event_id: crypto.randomUUID(), at: first.at + 60_000, source: 'ping' };
    await insideClock(canary.id, { PROJECTIONS: queueRecording().queue }, async (c) => {
      expect((await c.checkIn(canary.id, 1, first))!.next_wake).toBe(first.at + 0.8 * HOUR);
      // The second's need is a minute later: the object answers it (D1's timer), but its alarm stays.
      expect((await c.checkIn(canary.id, 1, second))!.next_wake).toBe(second.at + 0.8 * HOUR);
    });
    expect(await runInDurableObject(clock(canary.id), (_, state) => state.storage.getAlarm())).toBe(first.at + 0.8 * HOUR);
    // A ping more than half the lead later moves it again.
    const later: ClockCheckIn = { event_id: crypto.randomUUID(), at: first.at + 0.45 * HOUR, source: 'ping' };
    await insideClock(canary.id, { PROJECTIONS: queueRecording().queue }, (c) => c.checkIn(canary.id, 1, later));
    expect(await runInDurableObject(clock(canary.id), (_, state) => state.storage.getAlarm())).toBe(later.at + 0.8 * HOUR);
  });

  it('keeps its early wake when it owes D1 an activity row of its timer: that wake writes it, and then re-arms for the check-in’s cycle', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const armedBefore = await runInDurableObject(clock(canary.id), (_, state) => state.storage.getAlarm());
    const owed = {
      id: crypto.randomUUID(),
      user_id: owner.id,
      canary_id: canary.id,
      kind: 'grace_reminder',
      source: 'system',
      summary: 'Reminder sent.',
      created_at: Date.now(),
    };
    await runInDurableObject(
      clock(canary.id),
      // Where an earlier release kept a wake's feed line until projected.
      (_, state) => void state.storage.sql.exec('INSERT INTO pending_activity (id, row) VALUES (?, ?)', owed.id, JSON.stringify(owed)),
    );
    const projections = queueRecording();
    const halfAnHourOn = () => new Date(Date.now() + 0.5 * HOUR);
    const answer = await checkInWithToken(createServiceContext({ ...env, PROJECTIONS: projections.queue }, halfAnHourOn), canary.token, 'ping');
    const at = Date.parse(answer.last_check_in);
    expect(await runInDurableObject(clock(canary.id), (_, state) => state.storage.getAlarm())).toBe(armedBefore);

    // The early wake comes (its time, the old grace start, taken as now): it sends the row and re-arms for the new cycle.
    const wake = queueRecording();
    await insideClock(canary.id, { PROJECTIONS: wake.queue }, (c) => c.alarm());
    expect(wake.bodies).toEqual([expect.objectContaining({ type: 'canary_wake', activities: [owed] })]);
    expect(await runInDurableObject(clock(canary.id), (_, state) => state.storage.getAlarm())).toBe(at + 0.8 * HOUR);
  });

  it('writes a check-in the Worker never sent into D1 when the reconciler runs the object for the timer D1 still holds overdue', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const d1Timer = (await env.DB.prepare('SELECT timer_due_at FROM canaries WHERE id = ?').bind(canary.id).first<{ timer_due_at: number }>())!.timer_due_at;
    const entry: ClockCheckIn = { event_id: crypto.randomUUID(), at: Date.now(), source: 'ping' };
    // The object records it and moves its own timer on; the Worker is gone before its send, so D1's timer stays.
    expect(await clock(canary.id).checkIn(canary.id, 1, entry)).not.toBeNull();
    expect(await lastCheckInInD1(canary.id)).toBeLessThan(entry.at);

    // Past that timer the reconciler's scan finds it overdue and runs the object (reconcile-canaries.ts does this for each).
    await advanceCanary(servicesAt(d1Timer + 60_000), canary.id, 'reconciler', { armsTimer: true });
    expect(await lastCheckInInD1(canary.id)).toBe(entry.at);
    // Its feed line is its object's, as every token check-in's: none in D1, one in the feed.
    expect(await checkInLinesInD1(canary.id)).toEqual([]);
    expect(await feedCheckIns(owner.id)).toEqual([entry.event_id]);
  });

  it('leaves the check-in unsent in its object, whose next wake writes it: a projection the Worker never sent still reaches D1', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const entry: ClockCheckIn = { event_id: crypto.randomUUID(), at: Date.now(), source: 'ping' };
    // The object records it; the Worker that asked is gone before its send (nothing else queues it).
    expect(await clock(canary.id).checkIn(canary.id, 1, entry)).not.toBeNull();
    expect(await lastCheckInInD1(canary.id)).toBeLessThan(entry.at);

    // A wake that records nothing writes its timer and the check-ins it holds into D1 itself: no queue message.
    const projections = queueRecording();
    await insideClock(canary.id, { PROJECTIONS: projections.queue }, (c) => c.alarm());
    expect(projections.bodies).toEqual([]);
    expect(await lastCheckInInD1(canary.id)).toBe(entry.at);
    expect(await feedCheckIns(owner.id)).toEqual([entry.event_id]);

    // Written by the object itself now: the next wake does not carry it again.
    const again = queueRecording();
    await insideClock(canary.id, { PROJECTIONS: again.queue, DB: dbRefusingBatches() }, (c) => c.alarm());
    expect(again.bodies.flatMap((b) => (b.check_ins as unknown[] | undefined) ?? [])).toEqual([]);
  });

  it('a wake that records nothing while D1 refuses queues its projection instead, check-ins and all', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const entry: ClockCheckIn = { event_id: crypto.randomUUID(), at: Date.now(), source: 'ping' };
    expect(await clock(canary.id).checkIn(canary.id, 1, entry)).not.toBeNull();

    const projections = queueRecording();
    await insideClock(canary.id, { PROJECTIONS: projections.queue, DB: dbRefusingBatches() }, (c) => c.alarm());
    expect(projections.bodies.map((b) => b.type)).toEqual(['canary_wake']);
    expect(projections.bodies[0]!.check_ins).toEqual([entry]);
    expect(await lastCheckInInD1(canary.id)).toBeLessThan(entry.at);
    await applyProjections(createServiceContext(env), projections.bodies as never);
    expect(await lastCheckInInD1(canary.id)).toBe(entry.at);
  });

  it('a canary checked in a hundred times before its next wake queues them itself: its unsent check-ins stay few', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const projections = queueRecording();
    const t0 = Date.now();
    await insideClock(canary.id, { PROJECTIONS: projections.queue }, async (c) => {
      for (let i = 0; i < 99; i++) await c.checkIn(canary.id, 1, { event_id: crypto.randomUUID(), at: t0 + i, source: 'ping' });
      expect(projections.sends()).toBe(0);
      await c.checkIn(canary.id, 1, { event_id: crypto.randomUUID(), at: t0 + 99, source: 'ping' });
    });
    expect(projections.sends()).toBe(1);
    expect(projections.bodies.map((b) => b.at)).toEqual(Array.from({ length: 100 }, (_, i) => t0 + i));
  });

  it('an object built again (after an eviction) still counts the check-ins it holds unsent', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const projections = queueRecording();
    const t0 = Date.now();
    await runInDurableObject(clockOf(env, canary.id), async (first: CanaryClock, state: DurableObjectState) => {
      const quiet = { ...env, PROJECTIONS: projections.queue };
      (first as unknown as { env: typeof env }).env = quiet;
      for (let i = 0; i < 60; i++) await first.checkIn(canary.id, 1, { event_id: crypto.randomUUID(), at: t0 + i, source: 'ping' });
      // The same storage, a new instance: what an eviction leaves.
      const again = new CanaryClock(state, quiet);
      for (let i = 60; i < 99; i++) await again.checkIn(canary.id, 1, { event_id: crypto.randomUUID(), at: t0 + i, source: 'ping' });
      expect(projections.sends()).toBe(0);
      await again.checkIn(canary.id, 1, { event_id: crypto.randomUUID(), at: t0 + 99, source: 'ping' });
      (first as unknown as { env: typeof env }).env = env;
    });
    expect(projections.sends()).toBe(1);
    expect(projections.bodies).toHaveLength(100);
  });

  it('a write of the Worker that D1 and the queue both refuse hands the check-in back to its object, which queues it itself', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    await checkInSender(); // so that this check-in's own write is the one that fails
    await checkInWithToken(createServiceContext({ ...env, DB: dbRefusingBatches(), PROJECTIONS: queueDown }), canary.token, 'ping');
    expect(await standingsHeldBy(canary.id)).toEqual(['sent']);

    // With the Worker's send working, the object leaves its copy unsent (it queues it at its next wake).
    await checkInSender();
    await checkInWithToken(createServiceContext(env), canary.token, 'ping');
    expect(await standingsHeldBy(canary.id)).toEqual(['sent', 'owed']);
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
    expect(worker.trips).toEqual([]);
    expect((await api('POST', `/api/ping/${canary.token}`)).status).toBe(404);
  });

  it('a delete whose object could not be stopped retries the stop through the queue, and then the token fails at once', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const unreachable = {
      idFromName: (name: string) => env.CANARY_CLOCK.idFromName(name),
      get: () => ({
        stop: async () => {
          throw new Error('object unavailable');
        },
      }),
    } as unknown as typeof env.CANARY_CLOCK;
    const { jobs } = await captureQueues(() => deleteCanary(createServiceContext({ ...env, CANARY_CLOCK: unreachable }), owner.id, canary.id));
    expect(jobs).toEqual([{ queue: 'JOBS', body: { type: 'canary_stop', canary_id: canary.id }, delaySeconds: undefined }]);
    // Until the job runs, the object has not heard of the deletion (D1 has: the check-in changes nothing there).
    await expect(checkInWithToken(createServiceContext(env), canary.token, 'ping')).resolves.toMatchObject({ checked_in: 1 });

    const batch = createMessageBatch('afterword-jobs', [{ id: 'm0', timestamp: new Date(), attempts: 1, body: jobs[0]!.body }]);
    await consumeBatch(batch, env);
    expect((await getQueueResult(batch, createExecutionContext())).explicitAcks).toEqual(['m0']);
    await expect(checkInWithToken(createServiceContext(env), canary.token, 'ping')).rejects.toMatchObject({ status: 404 });
  });
});

describe('the D1 projection may lag; the promise does not move', () => {
  it('a check-in whose projection was lost still disarms an armed message: the release engine settles first', async () => {
    const recipient = await signedInUser();
    const due = dueDay();
    const { dueAt } = due;
    const { canary, m } = await senderWithArmedMessage(recipient, due);
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
      state.storage.sql.exec('UPDATE canary_clock SET last_check_in = ?', start);
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

  it('a projection delivered twice and out of order moves last_check_in only forward, and writes no feed line: the object has them', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const t0 = Date.now() + HOUR;
    const early = { type: 'canary_check_in' as const, canary_id: canary.id, event_id: crypto.randomUUID(), at: t0, source: 'ping' as const };
    const late = { ...early, event_id: crypto.randomUUID(), at: t0 + HOUR };
    await applyProjections(createServiceContext(env), [late]);
    await applyProjections(createServiceContext(env), [early, late, early]);
    expect(await lastCheckInInD1(canary.id)).toBe(t0 + HOUR);
    expect(await checkInLinesInD1(canary.id)).toEqual([]);
  });

  it('a redelivered old check-in cannot disarm a message armed after it', async () => {
    const recipient = await signedInUser();
    const due = dueDay();
    const { dueAt } = due;
    const { canary, m } = await senderWithArmedMessage(recipient, due);
    const old = { type: 'canary_check_in' as const, canary_id: canary.id, event_id: crypto.randomUUID(), at: dueAt - HOUR, source: 'ping' as const };
    await applyProjections(createServiceContext(env), [old]);
    expect((await messageRow(m.id))!.status).toBe('armed');
  });

  it('a message a projected check-in disarms has its clock moved to its next rule at once, not left at the window that ended', async () => {
    const sender = await signedInUser();
    const recipient = await signedInUser();
    const canary = await createCanaryFor(sender.token, { interval_seconds: 7 * 24 * 3600 });
    const { day, dueAt } = dueDay();
    const nextDay = new Date(dueAt + DAY).toISOString().slice(0, 10);
    const m = await createMessageFor(sender.token, {
      recipient_user_id: recipient.id,
      rules: [
        { trigger_type: 'fixed_date', trigger_value: day, expire_window: 2 },
        { trigger_type: 'fixed_date', trigger_value: nextDay, expire_window: 0 },
      ],
    });
    await captureQueues(() => advanceMessage(servicesAt(dueAt + 5), m.id, 'direct'));
    const timerOf = async () =>
      (await env.DB.prepare('SELECT timer_due_at FROM messages WHERE id = ?').bind(m.id).first<{ timer_due_at: number }>())!.timer_due_at;
    const nextRuleAt = Date.parse(`${nextDay}T00:00:00Z`);
    expect((await messageRow(m.id))!.status).toBe('armed');
    expect(await timerOf()).not.toBe(nextRuleAt);

    await applyProjections(createServiceContext(env), [
      { type: 'canary_check_in', canary_id: canary.id, event_id: crypto.randomUUID(), at: dueAt + HOUR, source: 'ping' },
    ]);
    expect((await messageRow(m.id))!.status).toBe('scheduled');
    expect(await timerOf()).toBe(nextRuleAt);
  });

  it('one queue delivery of two senders’ check-ins, in any order, has each one’s effect, dated by its own time', async () => {
    const recipient = await signedInUser();
    const due = dueDay();
    const { dueAt } = due;
    const armedSender = async () => {
      const armed = await senderWithArmedMessage(recipient, due);
      expect((await messageRow(armed.m.id))!.status).toBe('armed');
      return armed;
    };
    const ann = await armedSender();
    const bob = await armedSender();
    const at = (canary: { id: string }, when: number) => ({
      type: 'canary_check_in' as const,
      canary_id: canary.id,
      event_id: crypto.randomUUID(),
      at: when,
      source: 'ping' as const,
    });
    const annBeforeArming = at(ann.canary, dueAt - HOUR);
    const bobInWindow = at(bob.canary, dueAt + 10);
    const annInWindow = at(ann.canary, dueAt + 20);
    const bobLater = at(bob.canary, dueAt + 30);
    await applyProjections(createServiceContext(env), [bobLater, annInWindow, annBeforeArming, bobInWindow, bobLater]);

    const disarming = async (id: string) =>
      (
        await env.DB.prepare("SELECT created_at FROM message_transitions WHERE message_id = ? AND cause = 'check_in'").bind(id).all<{ created_at: number }>()
      ).results.map((r) => r.created_at);
    expect((await messageRow(ann.m.id))!.status).toBe('scheduled');
    expect((await messageRow(bob.m.id))!.status).toBe('scheduled');
    expect(await disarming(ann.m.id)).toEqual([dueAt + 20]);
    expect(await disarming(bob.m.id)).toEqual([dueAt + 10]);
    expect(await lastCheckInInD1(ann.canary.id)).toBe(dueAt + 20);
    expect(await lastCheckInInD1(bob.canary.id)).toBe(dueAt + 30);
  });

  it('a wake projection the queue took but never delivered (dropped after its retries) is written whole when the reconciler runs the object', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const start = Date.now() - 0.9 * HOUR;
    // The cycle began 0.9 h ago, in the record and its copy: the grace reminder (at 0.8 h) is due.
    await env.DB.prepare('UPDATE canaries SET last_check_in = ?, timer_due_at = ? WHERE id = ?')
      .bind(start, start + 0.8 * HOUR, canary.id)
      .run();
    await runInDurableObject(clockOf(env, canary.id), async (_: unknown, state: DurableObjectState) => {
      state.storage.sql.exec('UPDATE canary_clock SET last_check_in = ?', start);
    });
    // The wake records the reminder and hands its projection to a queue that accepts it and loses it.
    await insideClock(canary.id, { PROJECTIONS: queueLosing }, (clock) => clock.alarm());
    expect(await transitionsOf(canary.id)).toEqual([]);

    // D1's timer is overdue, so the reconciler runs the object, which writes its whole cycle again.
    await reconcileCanaries(servicesAt(Date.now()));
    expect((await transitionsOf(canary.id)).map((t) => [t.kind, t.due_at])).toEqual([['grace_reminder', start + 0.8 * HOUR]]);
  });

  it('settling an object that holds no check-in writes nothing', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const before = await lastCheckInInD1(canary.id);
    await settleCanaries(env, [canary.id]);
    expect(await lastCheckInInD1(canary.id)).toBe(before);
  });
});

describe('the object’s log of recent check-ins (one column of its clock’s row)', () => {
  const at = (base: number, i: number) => ({ event_id: crypto.randomUUID(), at: base + i * 60_000, source: 'ping' as const });

  it('costs a check-in one row written: the clock’s row, which it writes anyway', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const t0 = Date.now();
    const rows = await insideClock(canary.id, { PROJECTIONS: queueRecording().queue }, async (c) => {
      await c.checkIn(canary.id, 1, at(t0, 1)); // the cycle's first moves the alarm; the next ones do not
      return rowsWrittenBy((c as unknown as { ctx: DurableObjectState }).ctx.storage.sql, async () => {
        for (let i = 2; i < 6; i++) await c.checkIn(canary.id, 1, at(t0, i));
      });
    });
    expect(rows).toBe(4);
    expect(await standingsHeldBy(canary.id)).toEqual(Array(5).fill('owed'));
  });

  it('keeps every check-in still owed to D1, and of those D1 has the latest 100 however old', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const t0 = Date.now();
    await insideClock(canary.id, { PROJECTIONS: queueRecording().queue }, async (c) => {
      await c.checkIn(canary.id, 1, at(t0 - 30 * DAY, 0)); // owed, a month old
      // A hundred and ten the Heartbeat wrote into D1 itself, over ten days, then five owed.
      for (let i = 1; i <= 110; i++) await c.noteCheckIn(canary.id, at(t0 - 10 * DAY, i * 130));
      for (let i = 1; i <= 5; i++) await c.checkIn(canary.id, 1, at(t0, i));
    });
    expect(await standingsHeldBy(canary.id)).toEqual(['owed', ...Array(100).fill('applied'), ...Array(5).fill('owed')]);
  });

  it('a wake writes no feed line, in its object or in D1: the feed makes it from the timer event D1 gets', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const graceStart = Date.parse(canary.last_check_in) + 0.8 * HOUR;
    const statements = await insideClock(canary.id, { JOBS: queueRecording().queue }, (c) =>
      statementsRunBy((c as unknown as { ctx: DurableObjectState }).ctx.storage.sql, () => c.advanceAt(canary.id, graceStart, 'alarm')),
    );
    expect(statements.filter((s) => /pending_activity/.test(s.query) && s.rowsWritten)).toEqual([]);
    expect(
      await runInDurableObject(clock(canary.id), (_, state) =>
        state.storage.sql.exec<{ activity: string | null }>("SELECT activity FROM transitions WHERE kind = 'grace_reminder'").toArray(),
      ),
    ).toEqual([{ activity: null }]);
    const lines = await env.DB.prepare('SELECT kind FROM activity WHERE canary_id = ? AND kind = ?').bind(canary.id, 'grace_reminder').all();
    expect(lines.results).toEqual([]);
    const reminder = await env.DB.prepare("SELECT id FROM canary_transitions WHERE canary_id = ? AND kind = 'grace_reminder'")
      .bind(canary.id)
      .first<{ id: string }>();
    const feed = await listRecentActivity(createServiceContext(env), owner.id, 100);
    expect(feed.filter((l) => l.kind === 'grace_reminder')).toEqual([
      expect.objectContaining({ id: reminder!.id, canary_id: canary.id, created_at: new Date(graceStart).toISOString() }),
    ]);
  });

  it('loses none of many check-ins that arrive at once', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const t0 = Date.now();
    const entries = Array.from({ length: 20 }, (_, i) => at(t0, i + 1));
    await insideClock(canary.id, { PROJECTIONS: queueRecording().queue }, (c) => Promise.all(entries.map((e) => c.checkIn(canary.id, 1, e))));
    expect(await standingsHeldBy(canary.id)).toEqual(Array(20).fill('owed'));
  });
});

/** The rows the object's SQL statements wrote while `fn` ran. */
const rowsWrittenBy = async (sql: SqlStorage, fn: () => Promise<unknown>) => (await statementsRunBy(sql, fn)).reduce((n, s) => n + s.rowsWritten, 0);

/** An hourly canary, when its cycle began, and a check-in a minute later for a test to leave where D1 has not heard of it. */
async function hourlyCanaryAndAnUnsentCheckIn() {
  const owner = await signedInUser();
  const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
  const start = await lastCheckInInD1(canary.id);
  const unsent: ClockCheckIn = { event_id: crypto.randomUUID(), at: start + 60_000, source: 'ping' };
  return { owner, canary, start, unsent };
}

describe('an object of the first edge release (check-ins only, its state in a `clock` table)', () => {
  it('moves to the clock of its own: its unsent check-in is kept and reaches D1, and its alarm still finds its canary', async () => {
    const { owner, canary, start, unsent } = await hourlyCanaryAndAnUnsentCheckIn();
    // The storage as that release left it: its `clock` row and a check-in D1 has not heard of yet.
    await runInDurableObject(clockOf(env, canary.id), async (_: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      sql.exec('DELETE FROM canary_clock');
      sql.exec('DELETE FROM transitions');
      sql.exec('ALTER TABLE canary_clock DROP COLUMN check_ins');
      sql.exec(`CREATE TABLE clock (one INTEGER PRIMARY KEY CHECK (one = 1), canary_id TEXT NOT NULL, interval_seconds INTEGER NOT NULL DEFAULT 0,
        last_check_in INTEGER NOT NULL DEFAULT 0, token_version INTEGER NOT NULL DEFAULT 0, timer_due_at INTEGER,
        applied_through INTEGER NOT NULL DEFAULT 0, gone INTEGER NOT NULL DEFAULT 0)`);
      sql.exec('CREATE TABLE check_ins (event_id TEXT PRIMARY KEY, at INTEGER NOT NULL, source TEXT NOT NULL, sent INTEGER NOT NULL DEFAULT 0)');
      sql.exec(
        'INSERT INTO clock (one, canary_id, interval_seconds, last_check_in, token_version, timer_due_at, applied_through) VALUES (1, ?, 3600, ?, 1, ?, ?)',
        canary.id,
        unsent.at,
        start + 0.8 * HOUR,
        start,
      );
      sql.exec('INSERT INTO check_ins (event_id, at, source, sent) VALUES (?, ?, ?, 0)', unsent.event_id, unsent.at, unsent.source);
      ensureClockTables(sql);
      expect(sql.exec(`SELECT name FROM sqlite_master WHERE name IN ('clock', 'check_ins')`).toArray()).toEqual([]);
    });

    await settleCanaries(env, [canary.id]);
    expect(await lastCheckInInD1(canary.id)).toBe(unsent.at);
    await runInDurableObject(clockOf(env, canary.id), async (_: unknown, state: DurableObjectState) => {
      const clock = state.storage.sql.exec<{ id: string; user_id: string; last_check_in: number }>('SELECT id, user_id, last_check_in FROM canary_clock').one();
      expect(clock).toEqual({ id: canary.id, user_id: owner.id, last_check_in: unsent.at });
    });
    // Its alarm, early, runs the engine, which records nothing yet and arms the timer of its latest check-in's cycle.
    expect(await runDurableObjectAlarm(clockOf(env, canary.id))).toBe(true);
    await runInDurableObject(clockOf(env, canary.id), async (_: unknown, state: DurableObjectState) => {
      expect(await state.storage.getAlarm()).toBe(unsent.at + 0.8 * HOUR);
    });
    expect(await transitionsOf(canary.id)).toEqual([]);
  });
});

describe('an object of the release before its timer events held a waiting warning’s recheck and a wake’s feed line', () => {
  it('gains the columns once (a waiting warning’s recheck, a wake’s feed line), its timer events kept', async () => {
    const { canary } = await hourlyCanaryAndAnUnsentCheckIn();
    await clock(canary.id).advanceAt(canary.id, (await lastCheckInInD1(canary.id)) + 0.85 * HOUR, 'reconciler');
    await runInDurableObject(clock(canary.id), async (_: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      const columns = () =>
        sql
          .exec<{ name: string }>(`SELECT name FROM pragma_table_info('transitions')`)
          .toArray()
          .map((c) => c.name);
      sql.exec('ALTER TABLE transitions DROP COLUMN recheck_at');
      sql.exec('ALTER TABLE transitions DROP COLUMN activity');
      expect(columns()).not.toContain('recheck_at');
      ensureClockTables(sql);
      expect(columns()).toEqual(expect.arrayContaining(['recheck_at', 'activity']));
      expect(sql.exec<{ kind: string }>('SELECT kind FROM transitions').toArray()).toEqual([{ kind: 'grace_reminder' }]);
    });
  });
});

describe('an object of the release before its tables lost their rowids (check_ins, transitions, pending_activity)', () => {
  it('rebuilds them WITHOUT ROWID once and folds its check-ins into the clock row, keeping every row: its unsent check-in and its timer event still reach D1', async () => {
    const { canary, unsent } = await hourlyCanaryAndAnUnsentCheckIn();
    const layout = (sql: SqlStorage) =>
      sql
        .exec<{ name: string; sql: string }>(
          `SELECT name, sql FROM sqlite_master WHERE name IN ('check_ins', 'check_ins_at', 'transitions', 'pending_activity') ORDER BY name`,
        )
        .toArray()
        .map((r) => [r.name, /WITHOUT ROWID/.test(r.sql)]);
    await runInDurableObject(clock(canary.id), async (_: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      // The three tables as that release created them, a check-in D1 has not heard of in one of them.
      for (const table of ['transitions', 'pending_activity']) sql.exec(`DROP TABLE ${table}`);
      sql.exec('ALTER TABLE canary_clock DROP COLUMN check_ins');
      sql.exec(
        'CREATE TABLE check_ins (event_id TEXT PRIMARY KEY, at INTEGER NOT NULL, source TEXT NOT NULL, sent INTEGER NOT NULL DEFAULT 0, applied INTEGER NOT NULL DEFAULT 0)',
      );
      sql.exec('CREATE INDEX check_ins_at ON check_ins (at)');
      sql.exec(`CREATE TABLE transitions (
        id TEXT PRIMARY KEY, cycle_deadline INTEGER NOT NULL, kind TEXT NOT NULL, misses INTEGER NOT NULL, due_at INTEGER NOT NULL,
        fired_at INTEGER NOT NULL, counts_from INTEGER, emitted_at INTEGER, delivery_channel TEXT, delivery_status TEXT,
        delivered_at INTEGER, recorded_by TEXT NOT NULL, projected INTEGER NOT NULL DEFAULT 0, UNIQUE (cycle_deadline, kind, misses))`);
      sql.exec('CREATE TABLE pending_activity (id TEXT PRIMARY KEY, row TEXT NOT NULL)');
      sql.exec('INSERT INTO check_ins (event_id, at, source) VALUES (?, ?, ?)', unsent.event_id, unsent.at, unsent.source);
      expect(layout(sql)).toEqual([
        ['check_ins', false],
        ['check_ins_at', false],
        ['pending_activity', false],
        ['transitions', false],
      ]);
      ensureClockTables(sql);
      expect(layout(sql)).toEqual([
        ['pending_activity', true],
        ['transitions', true],
      ]);
      expect(JSON.parse(sql.exec<{ check_ins: string }>('SELECT check_ins FROM canary_clock').one().check_ins)).toContainEqual([
        unsent.event_id,
        unsent.at,
        unsent.source,
        0,
      ]);
      // Built again (as after an eviction), the object finds nothing more to do.
      ensureClockTables(sql);
      expect(layout(sql)).toHaveLength(2);
    });

    await settleCanaries(env, [canary.id]);
    expect(await lastCheckInInD1(canary.id)).toBe(unsent.at);
    // Its wake at the grace reminder records the event once in the new table and writes it into D1.
    await clock(canary.id).advanceAt(canary.id, unsent.at + 0.85 * HOUR, 'reconciler');
    await clock(canary.id).advanceAt(canary.id, unsent.at + 0.85 * HOUR, 'reconciler');
    expect((await transitionsOf(canary.id)).map((t) => t.kind)).toEqual(['grace_reminder']);
  });
});
