import { createExecutionContext, createMessageBatch, env, getQueueResult, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { advanceCanary } from '../src/domains/canary/advance-canary';
import { clockOf, settleCanaries } from '../src/domains/canary/canary-timer';
import { consumeBatch } from '../src/queues/consume';
import { checkInAll } from '../src/domains/canary/check-in';
import { DEFAULT_NOTIFY_PREFERENCES } from '../src/contracts/notify';
import { saveNotifyPreferences } from '../src/domains/notify/preferences';
import { createServiceContext } from '../src/wiring/service-context';
import { listRecentActivity } from '../src/domains/activity/list-activity';
import { api, signedInUser } from './helpers/api';
import { checkInWithQueueDown, insideClock, queueDown, queueRecording, statementsRunBy } from './helpers/canary-clock';
import { canaryNotices, captureJobs, createCanaryFor, deliverNotices, missedEvents, noQuietHours, servicesAt, transitionsOf } from './helpers/canary';

const HOUR = 3600_000;

/** A canary with a one-hour interval (grace = the last 12 minutes), created at the real now; its owner has no quiet hours. */
async function hourlyCanary() {
  const owner = await signedInUser();
  await noQuietHours(owner.id);
  const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
  const start = Date.parse(canary.last_check_in);
  return { owner, canary, start, deadline: start + HOUR, graceStart: start + 0.8 * HOUR };
}

/** The canary's engine at `at`, with the warnings it sends delivered to the owner (the outbox) at once. */
async function advanceAndWarn(canaryId: string, at: number) {
  const run = await captureJobs(() => advanceCanary(servicesAt(at), canaryId, 'alarm'));
  await deliverNotices(run.sent, at);
  return run;
}

describe('the deadline timer (advanceCanary with a controlled clock)', () => {
  it('records nothing before grace, then the grace reminder, then the miss at the deadline — once', async () => {
    const { canary, start, graceStart, deadline } = await hourlyCanary();
    const early = await captureJobs(() => advanceCanary(servicesAt(start + 10 * 60_000), canary.id, 'alarm'));
    expect(await transitionsOf(canary.id)).toEqual([]);
    expect(early.result.nextDueAt?.getTime()).toBe(graceStart);

    const grace = await captureJobs(() => advanceCanary(servicesAt(graceStart), canary.id, 'alarm'));
    expect((await transitionsOf(canary.id)).map((t) => t.kind)).toEqual(['grace_reminder']);
    // The reminder goes to the owner's channels; until one accepts it the object sends it again a minute on.
    expect(grace.sent).toEqual([expect.objectContaining({ type: 'canary_notice', kind: 'grace_reminder', canary_id: canary.id })]);
    expect(grace.result.nextDueAt?.getTime()).toBe(graceStart + 60_000);
    expect(await deliverNotices(grace.sent, graceStart + 2000)).toEqual(['sent']);
    expect(await transitionsOf(canary.id)).toEqual([expect.objectContaining({ kind: 'grace_reminder', delivered_at: graceStart + 2000 })]);

    const missed = await captureJobs(() => advanceCanary(servicesAt(deadline + 150), canary.id, 'alarm'));
    expect(missed.sent).toEqual([
      expect.objectContaining({ type: 'missed_checkins', canary_id: canary.id, misses: 1, deadline: new Date(deadline).toISOString() }),
      // The owner is told of the miss too.
      expect.objectContaining({ type: 'canary_notice', kind: 'missed', canary_id: canary.id }),
    ]);
    const again = await captureJobs(() => advanceCanary(servicesAt(deadline + 300), canary.id, 'alarm'));
    expect(again.sent).toEqual([]);
    const rows = await transitionsOf(canary.id);
    expect(rows.filter((t) => t.kind === 'missed')).toEqual([expect.objectContaining({ misses: 1, due_at: deadline, fired_at: deadline + 150 })]);
    expect(missed.result.nextDueAt?.getTime()).toBe(deadline + HOUR);
  });

  it('fires misses 2 and 3 one interval apart, each once', async () => {
    const { canary, graceStart, deadline } = await hourlyCanary();
    await advanceAndWarn(canary.id, graceStart);
    const sends: unknown[] = [];
    for (const at of [deadline, deadline + HOUR - 1, deadline + HOUR, deadline + HOUR + 5, deadline + 2 * HOUR, deadline + 2 * HOUR]) {
      sends.push(...missedEvents((await captureJobs(() => advanceCanary(servicesAt(at), canary.id, 'alarm'))).sent));
    }
    expect(sends.map((e) => (e as { misses: number }).misses)).toEqual([1, 2, 3]);
    const misses = (await transitionsOf(canary.id)).filter((t) => t.kind === 'missed');
    expect(misses.map((t) => [t.misses, t.due_at])).toEqual([
      [1, deadline],
      [2, deadline + HOUR],
      [3, deadline + 2 * HOUR],
    ]);
  });

  it('starts a new cycle at a check-in: the old misses stop, the new deadline counts from the check-in', async () => {
    const { owner, canary, graceStart, deadline } = await hourlyCanary();
    await advanceAndWarn(canary.id, graceStart);
    await captureJobs(() => advanceCanary(servicesAt(deadline), canary.id, 'alarm'));
    const checkedInAt = deadline + 30 * 60_000;
    await checkInAll(servicesAt(checkedInAt), owner.id, 'web');
    const newDeadline = checkedInAt + HOUR;

    // Where misses 2 would have been due in the old cycle, nothing is recorded or sent.
    const oldMiss2 = await captureJobs(() => advanceCanary(servicesAt(deadline + HOUR), canary.id, 'alarm'));
    expect(oldMiss2.sent).toEqual([]);
    expect((await transitionsOf(canary.id)).filter((t) => t.misses === 2)).toEqual([]);
    expect(oldMiss2.result.nextDueAt?.getTime()).toBe(checkedInAt + 0.8 * HOUR);

    await advanceAndWarn(canary.id, checkedInAt + 0.8 * HOUR);
    const next = await captureJobs(() => advanceCanary(servicesAt(newDeadline + 10), canary.id, 'alarm'));
    // The new cycle's first miss is misses 1 again, under its own deadline.
    expect(missedEvents(next.sent)).toEqual([expect.objectContaining({ misses: 1, deadline: new Date(newDeadline).toISOString() })]);
  });

  it('re-warns instead of counting when the deadline fires more than one grace period late', async () => {
    const { canary, graceStart, deadline } = await hourlyCanary();
    await advanceAndWarn(canary.id, graceStart);
    const grace = 0.2 * HOUR;
    const late = deadline + grace + 60_000; // the service was down past the whole grace period
    const fired = await captureJobs(() => advanceCanary(servicesAt(late), canary.id, 'reconciler'));
    expect(missedEvents(fired.sent)).toEqual([]);
    expect(canaryNotices(fired.sent)).toEqual(['late_rewarn']);
    const rows = await transitionsOf(canary.id);
    expect(rows.map((t) => t.kind)).toEqual(['grace_reminder', 'late_rewarn', 'missed']);
    // The misses wait for the re-warning to reach the owner.
    expect(rows.find((t) => t.kind === 'missed')).toMatchObject({ counts_from: null, emitted_at: null });
    const [line] = (await feedLinesOf(canary)).filter((l) => l.kind === 'late_rewarn');
    expect(line?.summary).toMatch(/Nothing is released until 12 minutes after a warning reaches you/);

    // The re-warning reaches the owner 5 s later: the misses count one grace period after that.
    const reached = late + 5000;
    await deliverNotices(fired.sent, reached);
    expect((await transitionsOf(canary.id)).find((t) => t.kind === 'missed')).toMatchObject({ counts_from: reached + grace, emitted_at: null });
    expect(missedEvents((await captureJobs(() => advanceCanary(servicesAt(reached + grace - 1), canary.id, 'alarm'))).sent)).toEqual([]);
    // Still no check-in once the fresh grace period is over: now it counts, once.
    const counted = await captureJobs(() => advanceCanary(servicesAt(reached + grace), canary.id, 'alarm'));
    expect(missedEvents(counted.sent)).toEqual([expect.objectContaining({ misses: 1 })]);
  });

  it('re-warns when the grace reminder never went out, even if the deadline fires on time', async () => {
    const { canary, deadline } = await hourlyCanary();
    const fired = await captureJobs(() => advanceCanary(servicesAt(deadline + 100), canary.id, 'alarm'));
    expect(missedEvents(fired.sent)).toEqual([]);
    expect(canaryNotices(fired.sent)).toEqual(['late_rewarn']);
    expect((await transitionsOf(canary.id)).map((t) => t.kind)).toEqual(['late_rewarn', 'missed']);
  });

  it('counts nothing while no channel accepts the warning, and sends it again with backoff', async () => {
    const { canary, graceStart, deadline } = await hourlyCanary();
    const first = await captureJobs(() => advanceCanary(servicesAt(graceStart), canary.id, 'alarm'));
    expect(canaryNotices(first.sent)).toEqual(['grace_reminder']);
    // Lost: never delivered. Re-sent 1, 2, 4 … minutes on, the same warning each time.
    const resend = [graceStart + 60_000, graceStart + 120_000, graceStart + 240_000];
    for (const at of resend) {
      const run = await captureJobs(() => advanceCanary(servicesAt(at), canary.id, 'alarm'));
      expect(run.sent).toEqual([
        expect.objectContaining({ kind: 'grace_reminder', transition_id: (first.sent[0] as { transition_id: string }).transition_id }),
      ]);
    }
    // The deadline comes with no warning delivered: re-warned, and no miss counts however long it lasts.
    const atDeadline = await captureJobs(() => advanceCanary(servicesAt(deadline), canary.id, 'alarm'));
    expect(canaryNotices(atDeadline.sent)).toEqual(['late_rewarn']);
    for (const at of [deadline + HOUR, deadline + 5 * HOUR, deadline + 30 * HOUR]) {
      expect(missedEvents((await captureJobs(() => advanceCanary(servicesAt(at), canary.id, 'alarm'))).sent)).toEqual([]);
    }
    expect((await transitionsOf(canary.id)).filter((t) => t.kind === 'missed').every((t) => t.counts_from === null)).toBe(true);
  });

  it('through hours with no channel, sends its undelivered warning again at most half an hour apart, never hours apart', async () => {
    const { canary, graceStart, deadline } = await hourlyCanary();
    const sentAt: number[] = [];
    // Every wake the object asks for, for eight hours past the deadline; each warning's job is lost.
    for (let at = graceStart; at <= deadline + 8 * HOUR; ) {
      const run = await captureJobs(() => advanceCanary(servicesAt(at), canary.id, 'alarm'));
      if (canaryNotices(run.sent).some((k) => k === 'grace_reminder' || k === 'late_rewarn')) sentAt.push(at);
      at = run.result.nextDueAt!.getTime();
    }
    const gaps = sentAt.slice(1).map((t, i) => (t - sentAt[i]!) / 60_000);
    expect(Math.max(...gaps)).toBe(30);
    expect(sentAt.at(-1)).toBeGreaterThanOrEqual(deadline + 8 * HOUR - 30 * 60_000);
  });

  it('does not send a warning again while its notice waits for the end of the owner’s quiet hours, nor wakes for it before the notice’s own try: the notice’s job sends it then', async () => {
    const { owner, canary, graceStart, deadline } = await hourlyCanary();
    const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);
    await saveNotifyPreferences(servicesAt(Date.now()), owner.id, {
      ...DEFAULT_NOTIFY_PREFERENCES,
      quiet_hours: { start: hhmm(graceStart - HOUR), end: hhmm(graceStart + 2 * 60_000) },
    });
    const grace = await captureJobs(() => advanceCanary(servicesAt(graceStart), canary.id, 'alarm'));
    expect(await deliverNotices(grace.sent, graceStart + 2000)).toEqual(['delayed']);
    const noticeId = (grace.sent[0] as { transition_id: string }).transition_id;
    const { due_at: noticeDue } = (await env.DB.prepare('SELECT due_at FROM owner_notices WHERE id = ?').bind(noticeId).first<{ due_at: number }>())!;
    // Its time to be sent again (a minute on) comes while the notice waits, pending in D1: nothing goes, and the
    // object looks again only once the notice's own try is past — not 2, 4, 8 … minutes on.
    const waiting = await captureJobs(() => advanceCanary(servicesAt(graceStart + 60_000), canary.id, 'alarm'));
    expect(waiting.sent).toEqual([]);
    expect(waiting.result.nextDueAt?.getTime()).toBe(noticeDue + 5 * 60_000);
    expect(noticeDue + 5 * 60_000).toBeLessThan(deadline);
    expect((await captureJobs(() => advanceCanary(servicesAt(graceStart + 180_000), canary.id, 'alarm'))).sent).toEqual([]);
    // Once its notice is no longer waiting (here: taken by a channel whose delivery the object never heard of), it goes again, so its delivery is reported.
    await env.DB.prepare("UPDATE owner_notices SET status = 'sent', sent_at = ? WHERE id = ?")
      .bind(noticeDue + 1000, noticeId)
      .run();
    expect(canaryNotices((await captureJobs(() => advanceCanary(servicesAt(noticeDue + 5 * 60_000), canary.id, 'alarm'))).sent)).toEqual(['grace_reminder']);
  });

  it('never emits the misses of a cycle that a check-in ended during the fresh grace period', async () => {
    const { owner, canary, deadline } = await hourlyCanary();
    await captureJobs(() => advanceCanary(servicesAt(deadline + 100), canary.id, 'alarm'));
    await api('POST', '/api/canary/checkin', { token: owner.token, json: {} });
    const later = await captureJobs(() => advanceCanary(servicesAt(deadline + 100 + 0.2 * HOUR + 1), canary.id, 'alarm'));
    expect(missedEvents(later.sent)).toEqual([]);
  });
});

describe("a Heartbeat check-in its canary's object did not hear", () => {
  /**
   * The Heartbeat at `at` with every canary object unreachable: D1 has the check-in, the objects do not. `jobs`:
   * the JOBS queue the failed notes are told again through (down by default: the objects never hear it).
   */
  async function heartbeatUnheard(ownerId: string, at: number, jobs: Queue = queueDown) {
    const unreachable = {
      ...env,
      JOBS: jobs,
      CANARY_CLOCK: {
        idFromName: (name: string) => env.CANARY_CLOCK.idFromName(name),
        get: () => ({ noteCheckIn: () => Promise.reject(new Error('the object was reset before it answered')) }),
      },
    };
    await checkInAll(
      createServiceContext(unreachable as unknown as typeof env, () => new Date(at)),
      ownerId,
      'web',
    );
  }

  it('is told to the object again through the queue, which moves its alarm for the cycle the check-in began', async () => {
    const { owner, canary, start } = await hourlyCanary();
    const checkedIn = start + 0.5 * HOUR;
    const sent: unknown[] = [];
    const jobs = { send: async (body: unknown) => void sent.push(body) } as unknown as Queue;
    await heartbeatUnheard(owner.id, checkedIn, jobs);
    expect(sent).toEqual([{ type: 'canary_note_check_in', canary_id: canary.id, entry: expect.objectContaining({ at: checkedIn, source: 'web' }) }]);
    // The JOBS consumer hands it to the object (twice here: a redelivery changes nothing).
    for (const id of ['m0', 'm1']) {
      const batch = createMessageBatch('afterword-jobs', [{ id, timestamp: new Date(), attempts: 1, body: sent[0] }]);
      await consumeBatch(batch, env);
      expect((await getQueueResult(batch, createExecutionContext())).explicitAcks).toEqual([id]);
    }
    const alarm = await runInDurableObject(clockOf(env, canary.id), (_: unknown, state: DurableObjectState) => state.storage.getAlarm());
    expect(alarm).toBe(checkedIn + 0.8 * HOUR);
  });

  it('is taken in from D1 before the object records a warning or a miss: no reminder or miss for the cycle it ended', async () => {
    const { owner, canary, start, graceStart, deadline } = await hourlyCanary();
    const checkedIn = start + 0.5 * HOUR;
    await heartbeatUnheard(owner.id, checkedIn);
    expect((await env.DB.prepare('SELECT last_check_in FROM canaries WHERE id = ?').bind(canary.id).first())?.last_check_in).toBe(checkedIn);

    // The object's own timer still wakes it for the cycle the check-in ended: it finds nothing to say.
    const atOldGrace = await captureJobs(() => advanceCanary(servicesAt(graceStart), canary.id, 'alarm'));
    expect(atOldGrace.sent).toEqual([]);
    expect(atOldGrace.result.nextDueAt?.getTime()).toBe(checkedIn + 0.8 * HOUR);
    const atOldDeadline = await captureJobs(() => advanceCanary(servicesAt(deadline + 150), canary.id, 'alarm'));
    expect(atOldDeadline.sent).toEqual([]);
    expect(await transitionsOf(canary.id)).toEqual([]);

    // The cycle the check-in began is warned for at its own grace start, and missed at its own deadline.
    const grace = await advanceAndWarn(canary.id, checkedIn + 0.8 * HOUR);
    expect(grace.sent).toEqual([expect.objectContaining({ type: 'canary_notice', kind: 'grace_reminder', canary_id: canary.id })]);
    const missed = await captureJobs(() => advanceCanary(servicesAt(checkedIn + HOUR + 150), canary.id, 'alarm'));
    expect(missed.sent).toContainEqual(
      expect.objectContaining({ type: 'missed_checkins', canary_id: canary.id, misses: 1, deadline: new Date(checkedIn + HOUR).toISOString() }),
    );
  });
});

describe('catching up after a long outage', () => {
  it('records at most 500 missed intervals per run, asks to run again at once, and finishes in the next run', async () => {
    const { canary, graceStart, deadline } = await hourlyCanary();
    await advanceAndWarn(canary.id, graceStart);
    const back = deadline + 649 * HOUR; // 650 intervals without a check-in while the timer was down
    const first = await captureJobs(() => advanceCanary(servicesAt(back), canary.id, 'reconciler'));
    expect((await transitionsOf(canary.id)).filter((t) => t.kind === 'missed')).toHaveLength(500);
    expect(first.result.nextDueAt?.getTime()).toBe(back + 1);
    const second = await captureJobs(() => advanceCanary(servicesAt(back + 1), canary.id, 'alarm'));
    const misses = (await transitionsOf(canary.id)).filter((t) => t.kind === 'missed').map((t) => t.misses);
    expect(new Set(misses).size).toBe(650);
    expect(Math.max(...misses)).toBe(650);
    // Late by far more than a grace period: re-warned, so nothing is sent until the fresh grace ends.
    expect(missedEvents([...first.sent, ...second.sent])).toEqual([]);
    // One feed line per run, newest first.
    expect((await feedLinesOf(canary)).filter((l) => l.kind === 'missed_checkin').map((l) => l.summary)).toEqual([
      'Missed check-in on "Unnamed" (501 to 650 intervals without a check-in).',
      'Missed check-in on "Unnamed" (1 to 500 intervals without a check-in).',
    ]);
  });
});

describe('the CanaryClock Durable Object', () => {
  it('is armed again by a check-in when its alarm was lost, instead of waiting for the reconciler', async () => {
    const { canary } = await hourlyCanary();
    const stub = env.CANARY_CLOCK.get(env.CANARY_CLOCK.idFromName(canary.id));
    // Its wake was due and the runtime gave up on it: no alarm is armed, so the object has no timer.
    await runInDurableObject(stub, (_, state) => state.storage.deleteAlarm());
    const res = await api('POST', '/api/canary/checkin', { json: { token: canary.token } });
    expect(res.status).toBeLessThan(300);
    // The check-in arms the timer of the cycle it began: its grace start.
    const graceStart = Date.parse(res.data.last_check_in) + 0.8 * HOUR;
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).toBe(graceStart);
  });

  it('keeps no copy of its timer but its alarm: a wake that only moves the timer on writes nothing else in the object', async () => {
    const { canary, start, graceStart } = await hourlyCanary();
    const stub = env.CANARY_CLOCK.get(env.CANARY_CLOCK.idFromName(canary.id));
    const checkIn = { event_id: crypto.randomUUID(), at: start + 0.1 * HOUR, source: 'ping' as const };
    const written = await insideClock(canary.id, { PROJECTIONS: queueRecording().queue }, async (c) => {
      // Early in the cycle: the check-in leaves the wake armed at the old grace start (moving it would cost more).
      await c.checkIn(canary.id, 1, checkIn);
      const { ctx } = c as unknown as { ctx: DurableObjectState };
      expect(await ctx.storage.getAlarm()).toBe(graceStart);
      // That wake records nothing and moves the timer on to the new grace start: the alarm, and no row.
      return objectRowsWritten(ctx, () => c.advanceAt(canary.id, graceStart, 'alarm', { arm: true }));
    });
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).toBe(checkIn.at + 0.8 * HOUR);
    expect(written).toEqual([]);
  });

  it('holds its timer while a resend comes first: a check-in leaves the resend armed, and the resend’s wake arms the timer again', async () => {
    const { canary, graceStart } = await hourlyCanary();
    const stub = env.CANARY_CLOCK.get(env.CANARY_CLOCK.idFromName(canary.id));
    // A check-in its caller could not queue, and the object's own send of it fails too: a resend is armed 30 s on.
    const unsent = await checkInWithQueueDown(canary.id, Date.now());
    const timer = graceStart; // a check-in so early in the cycle leaves the timer where it was
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).toBe(timer);
    const before = Date.now();
    await insideClock(canary.id, { PROJECTIONS: queueDown }, (c) => c.queueUnsent());
    const resend = await runInDurableObject(stub, (_, state) => state.storage.getAlarm());
    expect(resend).toBeGreaterThanOrEqual(before + 30_000);
    expect(resend).toBeLessThan(timer);
    expect(await heldTimer(canary.id)).toBe(timer);

    // Another check-in, well later in the cycle, would move the timer: the resend stays armed.
    const later = { event_id: crypto.randomUUID(), at: unsent.at + 0.5 * HOUR, source: 'ping' as const };
    await insideClock(canary.id, { PROJECTIONS: queueRecording().queue }, (c) => c.checkIn(canary.id, 1, later));
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).toBe(resend);

    // The resend's wake writes both check-ins into D1 and arms the timer of the latest one's cycle; nothing is held.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runInDurableObject(stub, (_, state) => state.storage.getAlarm())).toBe(later.at + 0.8 * HOUR);
    expect(await heldTimer(canary.id)).toBeNull();
    const d1 = await env.DB.prepare('SELECT last_check_in, timer_due_at FROM canaries WHERE id = ?').bind(canary.id).first();
    expect(d1).toEqual({ last_check_in: later.at, timer_due_at: later.at + 0.8 * HOUR });
  });

  it('runs on its alarm, records the reminder and re-arms for the deadline', async () => {
    const { canary } = await hourlyCanary();
    // Move the canary's cycle back in time so its grace has begun, then let the alarm run.
    // The object is the record of the clock, D1 its copy: both move (the grace reminder is due at 0.8 h).
    const start = Date.now() - 0.85 * HOUR;
    await env.DB.prepare('UPDATE canaries SET last_check_in = ? WHERE id = ?').bind(start, canary.id).run();
    const stub = env.CANARY_CLOCK.get(env.CANARY_CLOCK.idFromName(canary.id));
    await runInDurableObject(stub, (_, state) => {
      state.storage.sql.exec('UPDATE canary_clock SET last_check_in = ?', start);
    });
    const alarm = await captureJobs(() => runDurableObjectAlarm(stub));
    expect(alarm.result).toBe(true);
    expect(canaryNotices(alarm.sent)).toEqual(['grace_reminder']);
    // The alarm's path sends what it recorded to D1 through the PROJECTIONS queue; settle writes it now.
    await settleCanaries(env, [canary.id], null, { events: true });
    expect((await transitionsOf(canary.id)).map((t) => [t.kind, t.recorded_by])).toEqual([['grace_reminder', 'alarm']]);
    // Once the reminder reached the owner, the next wake is the deadline.
    await deliverNotices(alarm.sent, Date.now());
    const row = await env.DB.prepare('SELECT timer_due_at FROM canaries WHERE id = ?').bind(canary.id).first<{ timer_due_at: number }>();
    expect(row?.timer_due_at).toBe(start + HOUR);
    // Run twice: the same transition is not recorded again.
    await stub.sync(canary.id);
    await settleCanaries(env, [canary.id], null, { events: true });
    expect(await transitionsOf(canary.id)).toHaveLength(1);
  });

  it('stops when its canary is deleted', async () => {
    const { owner, canary } = await hourlyCanary();
    const stub = env.CANARY_CLOCK.get(env.CANARY_CLOCK.idFromName(canary.id));
    await api('DELETE', `/api/canary/${canary.id}`, { token: owner.token });
    expect(await runDurableObjectAlarm(stub)).toBe(false);
    expect(await stub.sync(canary.id)).toBeNull();
  });
});

/** The timer a canary's object holds apart from its alarm (null: the alarm is the timer). */
const heldTimer = (canaryId: string) =>
  runInDurableObject(clockOf(env, canaryId), (_, state) => state.storage.sql.exec<{ t: number | null }>('SELECT timer_due_at AS t FROM canary_clock').one().t);

/** The object's statements that wrote rows while `fn` ran, with the rows each wrote. */
const objectRowsWritten = async (ctx: DurableObjectState, fn: () => Promise<unknown>): Promise<[string, number][]> =>
  (await statementsRunBy(ctx.storage.sql, fn)).filter((s) => s.rowsWritten > 0).map((s) => [s.query, s.rowsWritten]);

/** The canary's lines in its owner's activity feed (GET /api/activity's), newest first. */
const feedLinesOf = async (canary: { id: string }) => {
  const { user_id } = (await env.DB.prepare('SELECT user_id FROM canaries WHERE id = ?').bind(canary.id).first<{ user_id: string }>())!;
  return (await listRecentActivity(createServiceContext(env), user_id, 100)).filter((l) => l.canary_id === canary.id);
};
