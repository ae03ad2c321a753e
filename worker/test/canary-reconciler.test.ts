import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { reconcileCanaries, scansLostTimers } from '../src/cron/reconcile-canaries';
import worker from '../src/index';
import { advanceCanary } from '../src/domains/canary/advance-canary';
import { checkInAll } from '../src/domains/canary/check-in';
import {
  JOB_LOST_AFTER_MS,
  MISSED_EVENT_LOST_AFTER_MS,
  pendingNoticesDueBefore,
  reconcileReleases,
  scansLostEvents,
} from '../src/domains/messages/reconcile-releases';
import { armOnMissedCheckins } from '../src/domains/messages/release/arm-on-missed-checkins';
import type { MissedCheckinsEvent } from '../src/contracts/jobs';
import { captureQueues, createMessageFor, messageRow } from './helpers/messages';
import { api, signedInUser } from './helpers/api';
import { canaryNotices, captureJobs, createCanaryFor, deliverNotices, missedEvents, noQuietHours, servicesAt, transitionsOf } from './helpers/canary';

const HOUR = 3600_000;

describe('the reconciler (every minute; lost timers every tenth minute)', () => {
  it('repairs a canary whose timer is missing: records what is due and re-arms it', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const start = Date.parse(canary.last_check_in);
    // The timer is lost (e.g. the object's storage was reset) while the canary entered grace.
    await env.DB.prepare('UPDATE canaries SET timer_due_at = NULL WHERE id = ?').bind(canary.id).run();
    const at = start + 0.9 * HOUR;
    const result = await captureJobs(() => reconcileCanaries(servicesAt(at)));
    expect(result.result.repaired).toBeGreaterThanOrEqual(1);
    const rows = await transitionsOf(canary.id);
    expect(rows).toEqual([expect.objectContaining({ kind: 'grace_reminder', recorded_by: 'reconciler' })]);
  });

  it('looks for lost timers only on the runs at :00, :10, … — and for unsent misses on every run', async () => {
    const minute = (m: number) => Date.UTC(2026, 10, 28, 12, m, 0);
    expect([0, 10, 20, 50].map((m) => scansLostTimers(minute(m)))).toEqual([true, true, true, true]);
    expect([1, 9, 11, 59].map((m) => scansLostTimers(minute(m)))).toEqual([false, false, false, false]);
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    await env.DB.prepare('UPDATE canaries SET timer_due_at = NULL WHERE id = ?').bind(canary.id).run();
    const at = Date.parse(canary.last_check_in) + 0.9 * HOUR;
    const between = await captureJobs(() => reconcileCanaries(servicesAt(at), { lostTimers: false }));
    expect(between.result.repaired).toBe(0);
    expect(await transitionsOf(canary.id)).toEqual([]);
    await captureJobs(() => reconcileCanaries(servicesAt(at), { lostTimers: true }));
    expect(await transitionsOf(canary.id)).toEqual([expect.objectContaining({ kind: 'grace_reminder', recorded_by: 'reconciler' })]);
  });

  it('repairs an overdue timer at the deadline: late by more than grace, it re-warns instead of counting', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const deadline = Date.parse(canary.deadline);
    // The armed wake (grace start) never fired; the service comes back well after the deadline.
    const at = deadline + 0.5 * HOUR;
    const { sent } = await captureJobs(() => reconcileCanaries(servicesAt(at)));
    expect(missedEvents(sent, canary.id)).toEqual([]);
    expect(canaryNotices(sent, canary.id)).toEqual(['late_rewarn']);
    expect((await transitionsOf(canary.id)).map((t) => t.kind)).toEqual(['late_rewarn', 'missed']);
  });

  it('leaves a canary with a healthy timer alone', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    await reconcileCanaries(servicesAt(Date.parse(canary.last_check_in) + 60_000));
    expect(await transitionsOf(canary.id)).toEqual([]);
  });

  it('re-sends a counted miss that was recorded but never reached the queue', async () => {
    const owner = await signedInUser();
    await noQuietHours(owner.id);
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const start = Date.parse(canary.last_check_in);
    const reminder = await captureJobs(() => advanceCanary(servicesAt(start + 0.8 * HOUR), canary.id, 'alarm'));
    await deliverNotices(reminder.sent, start + 0.8 * HOUR);
    // The queue is down when the deadline fires: the send throws, the row stays unsent (and reaches D1 so).
    const down = vi.spyOn(env.JOBS, 'sendBatch').mockRejectedValue(new Error('queue unavailable'));
    try {
      await expect(advanceCanary(servicesAt(start + HOUR), canary.id, 'alarm')).rejects.toThrow('queue unavailable');
    } finally {
      down.mockRestore();
    }
    expect((await transitionsOf(canary.id)).find((t) => t.kind === 'missed')?.emitted_at).toBeNull();

    const { sent } = await captureJobs(() => reconcileCanaries(servicesAt(start + HOUR + 60_000)));
    expect(sent.filter((j) => (j as { canary_id: string }).canary_id === canary.id)).toEqual([
      expect.objectContaining({ type: 'missed_checkins', canary_id: canary.id, misses: 1 }),
      expect.objectContaining({ type: 'canary_notice', kind: 'missed', canary_id: canary.id }),
    ]);
    expect((await transitionsOf(canary.id)).find((t) => t.kind === 'missed')?.emitted_at).not.toBeNull();
    const again = await captureJobs(() => reconcileCanaries(servicesAt(start + HOUR + 120_000)));
    expect(again.sent.filter((j) => (j as { canary_id: string }).canary_id === canary.id)).toEqual([]);
  });

  it('leaves alone a canary whose unsent miss belongs to a cycle a check-in ended', async () => {
    // Found by the model test once pauses made D1's timer exact (seed -735475182): the unsent-miss query
    // took misses of ended cycles too, which are never sent, so such a canary was run every minute for ever.
    const owner = await signedInUser();
    await noQuietHours(owner.id);
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const deadline = Date.parse(canary.deadline);
    await captureJobs(() => advanceCanary(servicesAt(deadline - 0.2 * HOUR), canary.id, 'alarm')); // the reminder: never delivered
    const late = await captureJobs(() => advanceCanary(servicesAt(deadline), canary.id, 'alarm')); // so re-warned
    await deliverNotices(late.sent, deadline + 60_000); // the misses count 12 minutes after this
    const checkedIn = deadline + 10 * 60_000;
    await checkInAll(servicesAt(checkedIn), owner.id, 'web'); // before they count: the cycle ends
    const unsent = (await transitionsOf(canary.id)).find((t) => t.kind === 'missed')!;
    expect(unsent).toMatchObject({ cycle_deadline: deadline, counts_from: deadline + 13 * 60_000, emitted_at: null });
    // The new cycle's timer is healthy (its grace start); the old cycle's miss is no reason to run it.
    const graceStart = checkedIn + 0.8 * HOUR;
    await env.DB.prepare('UPDATE canaries SET timer_due_at = ? WHERE id = ?').bind(graceStart, canary.id).run();
    const run = await captureJobs(() => reconcileCanaries(servicesAt(graceStart + 1000)));
    expect(run.result.resent).toBe(0);
    expect((await transitionsOf(canary.id)).filter((t) => t.cycle_deadline !== deadline)).toEqual([]);
  });
});

describe('the missed_checkins event on the queue', () => {
  it('is acknowledged by the consumer, including a redelivery of the same event', async () => {
    const event = {
      type: 'missed_checkins',
      event_id: crypto.randomUUID(),
      user_id: 'u',
      canary_id: 'c',
      misses: 1,
      deadline: new Date().toISOString(),
      fired_at: new Date().toISOString(),
    };
    const batch = createMessageBatch('afterword-jobs', [
      { id: 'm1', timestamp: new Date(), attempts: 1, body: event },
      { id: 'm1', timestamp: new Date(), attempts: 2, body: event },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(['m1', 'm1']);
    expect(result.retryMessages).toEqual([]);
  });
});

describe('activity', () => {
  it('feeds Recent Activity newest first and only to its owner', async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    await api('POST', '/api/canary/checkin', { json: { token: canary.token } });
    const mine = await api('GET', '/api/activity?limit=5', { token: owner.token });
    expect(mine.data.map((a: { kind: string }) => a.kind)).toEqual(['check_in', 'canary_created']);
    expect((await api('GET', '/api/activity', { token: outsider.token })).data).toEqual([]);
    expect((await api('GET', '/api/activity')).status).toBe(401);
  });

  it('leaves alone a miss that was to count after a re-warning when a check-in ended its cycle first', async () => {
    // Found by the system simulation (docs/decisions/simulation.md): such a miss keeps its counts_from and no
    // emitted_at for ever, and the reconciler ran its canary's object again every minute, for ever.
    const owner = await signedInUser();
    await noQuietHours(owner.id);
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const start = Date.parse(canary.last_check_in);
    await captureJobs(() => advanceCanary(servicesAt(start + 0.8 * HOUR), canary.id, 'alarm')); // the reminder reaches nobody
    const late = await captureJobs(() => advanceCanary(servicesAt(start + HOUR), canary.id, 'alarm')); // re-warned
    await deliverNotices(
      late.sent.filter((j) => (j as { kind?: string }).kind === 'late_rewarn'),
      start + HOUR,
    ); // the misses count from one grace period later…
    // …but the owner checks in first, inside that grace period: the cycle is over.
    await checkInAll(servicesAt(start + 1.1 * HOUR), owner.id, 'web');
    // Its alarm at the end of that grace period finds the cycle over and sleeps until the new one's grace starts.
    await captureJobs(() => advanceCanary(servicesAt(start + 1.2 * HOUR), canary.id, 'alarm', { armsTimer: true }));
    const pending = (await transitionsOf(canary.id)).find((t) => t.kind === 'missed');
    expect(pending?.counts_from).not.toBeNull();
    expect(pending?.emitted_at).toBeNull();

    // Whose object the reconciler asks to run: not this canary's (its timer is healthy, nothing of its cycle is unsent).
    const spy = vi.spyOn(env.CANARY_CLOCK, 'idFromName');
    try {
      await captureJobs(() => reconcileCanaries(servicesAt(start + 1.5 * HOUR)));
      expect(spy.mock.calls.map(([name]) => name)).not.toContain(canary.id);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('owner notices whose job was lost', () => {
  it('re-queues a notice still pending a minute past its due time, found through the index of pending notices alone', async () => {
    const owner = await signedInUser();
    const now = Date.now();
    const notice = (id: string, status: string) =>
      env.DB.prepare(
        `INSERT INTO owner_notices (id, user_id, kind, subject, text, status, due_at, created_at) VALUES (?, ?, 'message_armed', 'Armed', 'Armed.', ?, ?, ?)`,
      )
        .bind(id, owner.id, status, now - 2 * 60_000, now - 2 * 60_000)
        .run();
    const [lost, sent] = [crypto.randomUUID(), crypto.randomUUID()];
    await notice(lost, 'pending');
    await notice(sent, 'sent');
    const found = (await pendingNoticesDueBefore(servicesAt(now), now - JOB_LOST_AFTER_MS)).map((n) => n.id);
    expect(found).toContain(lost);
    expect(found).not.toContain(sent);
    const { sql, params } = pendingNoticesDueBefore(servicesAt(now), now - JOB_LOST_AFTER_MS).toSQL();
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>();
    // Covering since owner_notices is keyed by its id (db/migrations/0040_owner_notices_by_key.sql): the index holds the id.
    expect(plan.results.map((r) => r.detail)).toEqual(['SEARCH owner_notices USING COVERING INDEX owner_notices_pending_idx (due_at<?)']);
  });
});

describe('a missed-check-ins event the queue lost after its retries', () => {
  it('is sent again once it should long have armed a scheduled message, and arms it; not before, and not once it has', async () => {
    const owner = await signedInUser();
    const recipient = await signedInUser();
    await noQuietHours(owner.id);
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const m = await createMessageFor(owner.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: '1', expire_window: 1 }],
    });
    const start = Date.parse(canary.last_check_in);
    const [graceStart, deadline] = [start + 0.8 * HOUR, start + HOUR];
    // The reminder reaches the owner in time, so the miss counts at the deadline; its event is sent and lost.
    await deliverNotices((await captureJobs(() => advanceCanary(servicesAt(graceStart), canary.id, 'alarm'))).sent, graceStart);
    const [lost] = missedEvents((await captureJobs(() => advanceCanary(servicesAt(deadline), canary.id, 'alarm'))).sent);
    expect(lost).toBeDefined();
    const resentAt = async (t: number) =>
      missedEvents((await captureJobs(() => reconcileReleases(servicesAt(t)))).sent, canary.id) as unknown as MissedCheckinsEvent[];

    expect(await resentAt(deadline + MISSED_EVENT_LOST_AFTER_MS - 60_000)).toEqual([]);
    const [again] = await resentAt(deadline + MISSED_EVENT_LOST_AFTER_MS + 60_000);
    expect(again).toEqual(lost);
    await captureQueues(() => armOnMissedCheckins(servicesAt(deadline + MISSED_EVENT_LOST_AFTER_MS + 60_000), again!));
    expect((await messageRow(m.id))!.status).toBe('armed');
    expect(await resentAt(deadline + MISSED_EVENT_LOST_AFTER_MS + 11 * 60_000)).toEqual([]);
  });

  it('is looked for once an hour, on the hour (the scan reads every scheduled message with a miss rule)', () => {
    const minute = (m: number) => Date.UTC(2026, 10, 29, 12, m, 0);
    expect([0, 60, 120].map((m) => scansLostEvents(minute(m)))).toEqual([true, true, true]);
    expect([1, 10, 30, 59].map((m) => scansLostEvents(minute(m)))).toEqual([false, false, false, false]);
  });
});
