import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { listRecentActivity } from '../src/domains/activity/list-activity';
import { advanceCanary } from '../src/domains/canary/advance-canary';
import { clockOf } from '../src/domains/canary/canary-timer';
import { keepEventLines } from '../src/domains/canary/event-lines';
import { humanTime } from '../src/lib/human-time';
import { createServiceContext } from '../src/wiring/service-context';
import { api, signedInUser } from './helpers/api';
import { insideClock, queueLosing, queueRecording } from './helpers/canary-clock';
import { captureJobs, createCanaryFor, deliverNotices, noQuietHours, servicesAt } from './helpers/canary';

/**
 * The feed's lines for what a canary's wakes recorded — its grace reminder, a re-warning, each run of misses — are
 * made from the timer events D1 holds (domains/canary/event-lines.ts); no wake writes a row of `activity` for them.
 */
const HOUR = 3_600_000;
const EVENT_KINDS = ['grace_reminder', 'late_rewarn', 'missed_checkin'];

const feedOf = async (userId: string) => (await listRecentActivity(createServiceContext(env), userId, 100)).filter((l) => EVENT_KINDS.includes(l.kind));
const eventRowsInActivity = async (canaryId: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM activity WHERE canary_id = ? AND kind IN ('grace_reminder', 'late_rewarn', 'missed_checkin')`)
    .bind(canaryId)
    .first<{ n: number }>())!.n;
const eventId = async (canaryId: string, kind: string, misses = 0) =>
  (await env.DB.prepare('SELECT id FROM canary_transitions WHERE canary_id = ? AND kind = ? AND misses = ?')
    .bind(canaryId, kind, misses)
    .first<{ id: string }>())!.id;

/** An hourly canary named `name` whose owner has no quiet hours, and its grace start and deadline. */
async function hourlyCanary(name: string) {
  const owner = await signedInUser();
  await noQuietHours(owner.id);
  const canary = await createCanaryFor(owner.token, { interval_seconds: 3600, name });
  const start = Date.parse(canary.last_check_in);
  return { owner, canary, graceStart: start + 0.8 * HOUR, deadline: start + HOUR };
}

/** The engine at `at`, with the warnings it sends delivered to the owner at once. */
async function wakeAt(canaryId: string, at: number) {
  const run = await captureJobs(() => advanceCanary(servicesAt(at), canaryId, 'alarm'));
  await deliverNotices(run.sent, at);
}

describe("the feed's lines of a canary's wakes", () => {
  it('shows the reminder and each run of misses in the words the wakes wrote, newest first, from the events alone', async () => {
    const { owner, canary, graceStart, deadline } = await hourlyCanary('Backups');
    await wakeAt(canary.id, graceStart);
    await wakeAt(canary.id, deadline + 1);
    await wakeAt(canary.id, deadline + 2 * HOUR + 1);
    expect(await feedOf(owner.id)).toEqual([
      {
        id: await eventId(canary.id, 'missed', 2),
        kind: 'missed_checkin',
        source: 'system',
        canary_id: canary.id,
        summary: 'Missed check-in on "Backups" (2 to 3 intervals without a check-in).',
        created_at: new Date(deadline + 2 * HOUR + 1).toISOString(),
      },
      {
        id: await eventId(canary.id, 'missed', 1),
        kind: 'missed_checkin',
        source: 'system',
        canary_id: canary.id,
        summary: 'Missed check-in on "Backups" (1 interval without a check-in).',
        created_at: new Date(deadline + 1).toISOString(),
      },
      {
        id: await eventId(canary.id, 'grace_reminder'),
        kind: 'grace_reminder',
        source: 'system',
        canary_id: canary.id,
        summary: `Reminder: check in before ${humanTime(deadline)} or your canary "Backups" is missed.`,
        created_at: new Date(graceStart).toISOString(),
      },
    ]);
    expect(await eventRowsInActivity(canary.id)).toBe(0);
  });

  it('tells a re-warning after a late deadline with the canary’s grace period', async () => {
    const { owner, canary, deadline } = await hourlyCanary('Laptop');
    // Nobody woke the canary until well past its deadline (no reminder reached the owner): re-warned, not counted.
    await wakeAt(canary.id, deadline + HOUR);
    const lines = await feedOf(owner.id);
    expect(lines.find((l) => l.kind === 'late_rewarn')?.summary).toBe(
      'Your canary "Laptop" passed its deadline before a reminder could reach you. Nothing is released until 12 minutes after a warning reaches you; check in before then.',
    );
  });

  it('shows a line an earlier release wrote into activity once, in its own words, not again from its event', async () => {
    const { owner, canary, graceStart } = await hourlyCanary('Phone');
    await wakeAt(canary.id, graceStart);
    await env.DB.prepare(
      "INSERT INTO activity (id, user_id, canary_id, kind, source, summary, created_at) VALUES (?1, ?2, ?3, 'grace_reminder', 'system', 'Written by the wake itself.', ?4)",
    )
      .bind(crypto.randomUUID(), owner.id, canary.id, graceStart)
      .run();
    expect((await feedOf(owner.id)).map((l) => l.summary)).toEqual(['Written by the wake itself.']);
  });

  it('keeps a deleted canary’s lines in the feed, each once', async () => {
    const { owner, canary, graceStart, deadline } = await hourlyCanary('Old phone');
    await wakeAt(canary.id, graceStart);
    await wakeAt(canary.id, deadline + 1);
    const before = await feedOf(owner.id);
    expect(before).toHaveLength(2);
    expect(await eventRowsInActivity(canary.id)).toBe(0);
    expect((await api('DELETE', `/api/canary/${canary.id}`, { token: owner.token })).status).toBe(200);
    expect(await feedOf(owner.id)).toEqual(before);
    expect(await eventRowsInActivity(canary.id)).toBe(2);
  });

  it('writes each line into activity once however often they are kept (an export, then the deletion)', async () => {
    const { owner, canary, graceStart } = await hourlyCanary('Watch');
    await wakeAt(canary.id, graceStart);
    await keepEventLines(createServiceContext(env), owner.id);
    await keepEventLines(createServiceContext(env), owner.id);
    expect(await eventRowsInActivity(canary.id)).toBe(1);
    expect((await api('DELETE', `/api/canary/${canary.id}`, { token: owner.token })).status).toBe(200);
    expect(await eventRowsInActivity(canary.id)).toBe(1);
    expect((await feedOf(owner.id)).map((l) => l.kind)).toEqual(['grace_reminder']);
  });

  it('keeps the line of an event whose projection the queue lost when the canary is deleted', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600, name: 'Tablet' });
    // The cycle began 0.9 h ago, in the object and in D1: its wake records the grace reminder and hands the
    // projection to a queue that loses it, so D1 has not heard of the event.
    const start = Date.now() - 0.9 * HOUR;
    await env.DB.prepare('UPDATE canaries SET last_check_in = ? WHERE id = ?').bind(start, canary.id).run();
    await runInDurableObject(clockOf(env, canary.id), (_, state) => void state.storage.sql.exec('UPDATE canary_clock SET last_check_in = ?', start));
    await insideClock(canary.id, { PROJECTIONS: queueLosing, JOBS: queueRecording().queue }, (c) => c.alarm());
    expect(await feedOf(owner.id)).toEqual([]);
    expect((await api('DELETE', `/api/canary/${canary.id}`, { token: owner.token })).status).toBe(200);
    expect((await feedOf(owner.id)).map((l) => l.kind)).toEqual(['grace_reminder']);
  });

  it('shows an outsider none of them', async () => {
    const { canary, graceStart } = await hourlyCanary('Mine');
    await wakeAt(canary.id, graceStart);
    const outsider = await signedInUser();
    expect(await feedOf(outsider.id)).toEqual([]);
    expect((await api('GET', '/api/activity', { token: outsider.token })).data).toEqual([]);
  });
});
