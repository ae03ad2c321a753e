import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { nextOccurrence, type TCanarySchedule } from '../src/contracts/canary-schedule';
import { advanceCanary } from '../src/domains/canary/advance-canary';
import { pauseCanary, resumeCanary } from '../src/domains/canary/update-canary';
import type { MissedCheckinsEvent } from '../src/contracts/jobs';
import { currentMisses, armOnMissedCheckins } from '../src/domains/messages/release/arm-on-missed-checkins';
import { buildOpenApiDocument } from '../src/openapi/document';
import { captureQueues, createMessageFor, messageRow } from './helpers/messages';
import { api, signedInUser } from './helpers/api';
import { canaryNotices, captureJobs, createCanaryFor, deliverNotices, missedEvents, noQuietHours, servicesAt, transitionsOf } from './helpers/canary';

/**
 * Calendar schedules and vacation pauses through the API and the canary's object
 * (docs/decisions/calendar-schedules.md). Clock-driven steps call the services at a chosen instant.
 */
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const weekly: TCanarySchedule = { kind: 'weekly', days: ['mon', 'thu'], time: '10:00', time_zone: 'Europe/Berlin', grace_seconds: 2 * 3600 };

async function owner() {
  const user = await signedInUser();
  await noQuietHours(user.id);
  return user;
}

describe('creating and changing a calendar canary', () => {
  it('creates a weekly canary whose deadline is the next Monday or Thursday at 10:00 Berlin time, shown in words', async () => {
    const user = await owner();
    const res = await api('POST', '/api/canary/create', { token: user.token, json: { name: 'Weekly', schedule: { ...weekly, time_zone: 'europe/berlin' } } });
    expect(res.status).toBe(201);
    const created = Date.parse(res.data.last_check_in);
    expect(res.data.schedule).toEqual({ ...weekly, days: ['mon', 'thu'] });
    expect(res.data.schedule_words).toBe('Every Monday and Thursday by 10:00 (Europe/Berlin), reminded 2 hours before');
    expect(Date.parse(res.data.deadline)).toBe(nextOccurrence(weekly, created + 2 * HOUR));
    // Clients that know only intervals see the shortest time between two scheduled days.
    expect(res.data.interval_seconds).toBe(3 * 86_400);
    expect(res.data.paused_until).toBeNull();
    const row = await env.DB.prepare('SELECT schedule, timer_due_at FROM canaries WHERE id = ?')
      .bind(res.data.id)
      .first<{ schedule: string; timer_due_at: number }>();
    expect(JSON.parse(row!.schedule)).toEqual(weekly);
    // The object armed its first wake at the grace start before that deadline.
    expect(row!.timer_due_at).toBe(Date.parse(res.data.deadline) - 2 * HOUR);
  });

  it("keeps the SPEC's create body working unchanged: an interval canary has no schedule", async () => {
    const user = await owner();
    const res = await api('POST', '/api/canary/create', { token: user.token, json: { interval_seconds: 86400 } });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ interval_seconds: 86400, schedule: null, schedule_words: null, paused_until: null });
  });

  it.each([
    ['an unknown time zone', { ...weekly, time_zone: 'Europe/Atlantis' }, /IANA time zone/],
    ['no weekday', { ...weekly, days: [] }, /at least one weekday/],
    ['a grace longer than half the gap between days', { ...weekly, grace_seconds: 2 * 86_400 }, /grace_seconds must be at most/],
    ['a day of month 32', { kind: 'monthly_day', day: 32, time: '10:00', time_zone: 'UTC' }, /day must be 1 to 31/],
    ['an unknown kind', { kind: 'yearly', time: '10:00', time_zone: 'UTC' }, /./],
  ])('refuses a schedule with %s with 422 and a detail', async (_name, schedule, message) => {
    const user = await owner();
    const res = await api('POST', '/api/canary/create', { token: user.token, json: { schedule } });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.data.detail)).toMatch(message);
  });

  it('changes an interval canary to the first Monday of the month and back (PATCH), re-arming its timer', async () => {
    const user = await owner();
    const canary = await createCanaryFor(user.token, { interval_seconds: 3600 });
    const first: TCanarySchedule = {
      kind: 'monthly_weekday',
      week: 'first',
      weekday: 'mon',
      time: '09:00',
      time_zone: 'America/New_York',
      grace_seconds: 86_400,
    };
    const res = await api('PATCH', `/api/canary/${canary.id}`, { token: user.token, json: { schedule: first, name: 'Monthly' } });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ name: 'Monthly', schedule: first, interval_seconds: 28 * 86_400 });
    expect(Date.parse(res.data.deadline)).toBe(nextOccurrence(first, Date.parse(canary.last_check_in) + DAY));
    const timer = await env.DB.prepare('SELECT timer_due_at FROM canaries WHERE id = ?').bind(canary.id).first<{ timer_due_at: number }>();
    expect(timer!.timer_due_at).toBe(Date.parse(res.data.deadline) - DAY);

    const back = await api('PATCH', `/api/canary/${canary.id}`, { token: user.token, json: { schedule: null, interval_seconds: 7200 } });
    expect(back.data).toMatchObject({ schedule: null, interval_seconds: 7200 });
    expect(Date.parse(back.data.deadline)).toBe(Date.parse(canary.last_check_in) + 7200_000);
  });

  it("answers 404 for another user's canary and 401 without a session", async () => {
    const user = await owner();
    const outsider = await owner();
    const canary = await createCanaryFor(user.token);
    expect((await api('PATCH', `/api/canary/${canary.id}`, { token: outsider.token, json: { schedule: weekly } })).status).toBe(404);
    expect(
      (await api('POST', `/api/canary/${canary.id}/pause`, { token: outsider.token, json: { until: new Date(Date.now() + DAY).toISOString() } })).status,
    ).toBe(404);
    expect((await api('PATCH', `/api/canary/${canary.id}`, { json: { schedule: weekly } })).status).toBe(401);
  });
});

describe('a calendar canary on its clock', () => {
  it('reminds at the grace start, misses at the scheduled time, and misses again at the next scheduled day', async () => {
    const user = await owner();
    const canary = await createCanaryFor(user.token, { schedule: weekly });
    const deadline = Date.parse(canary.deadline);
    const graceRun = await captureJobs(() => advanceCanary(servicesAt(deadline - 2 * HOUR), canary.id, 'alarm'));
    expect(canaryNotices(graceRun.sent)).toEqual(['grace_reminder']);
    await deliverNotices(graceRun.sent, deadline - 2 * HOUR);
    const missRun = await captureJobs(() => advanceCanary(servicesAt(deadline), canary.id, 'alarm'));
    expect(missedEvents(missRun.sent)).toEqual([expect.objectContaining({ misses: 1, deadline: new Date(deadline).toISOString() })]);
    const second = nextOccurrence(weekly, deadline);
    expect(missRun.result.nextDueAt?.getTime()).toBe(second);
    const again = await captureJobs(() => advanceCanary(servicesAt(second), canary.id, 'alarm'));
    expect(missedEvents(again.sent)).toEqual([expect.objectContaining({ misses: 2 })]);
    expect((await transitionsOf(canary.id)).filter((t) => t.kind === 'missed').map((t) => t.due_at)).toEqual([deadline, second]);
  });
});

describe('the release engine reads a calendar deadline', () => {
  it("arms a message on a calendar canary's miss, and treats the event as stale once a pause moved the deadline", async () => {
    const sender = await owner();
    const recipient = await signedInUser();
    const canary = await createCanaryFor(sender.token, { schedule: weekly });
    const deadline = Date.parse(canary.deadline);
    const m = await createMessageFor(sender.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: 1, expire_window: 3 }],
    });
    // Warned in time, then missed at the scheduled time: the engine emits misses 1 of the calendar cycle.
    const grace = await captureJobs(() => advanceCanary(servicesAt(deadline - 2 * HOUR), canary.id, 'alarm'));
    await deliverNotices(grace.sent, deadline - 2 * HOUR);
    const miss = await captureJobs(() => advanceCanary(servicesAt(deadline), canary.id, 'alarm'));
    const [event] = missedEvents(miss.sent) as MissedCheckinsEvent[];
    expect(event?.deadline).toBe(new Date(deadline).toISOString());
    expect(await currentMisses(servicesAt(deadline + 1), sender.id)).toBe(1);
    await captureQueues(() => armOnMissedCheckins(servicesAt(deadline + 1), event!));
    expect((await messageRow(m.id))!.status).toBe('armed');
  });

  it('an event of a cycle a pause replaced arms nothing', async () => {
    const sender = await owner();
    const recipient = await signedInUser();
    const canary = await createCanaryFor(sender.token, { interval_seconds: 3600 });
    const start = Date.parse(canary.last_check_in);
    const m = await createMessageFor(sender.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: 1, expire_window: 3 }],
    });
    await pauseCanary(servicesAt(start + 60_000), sender.id, canary.id, { until: new Date(start + 5 * DAY).toISOString() });
    // An event of the interval's old deadline (one hour after the last check-in), delivered late.
    const stale: MissedCheckinsEvent = {
      type: 'missed_checkins',
      event_id: crypto.randomUUID(),
      user_id: sender.id,
      canary_id: canary.id,
      misses: 1,
      deadline: new Date(start + HOUR).toISOString(),
      fired_at: new Date(start + HOUR).toISOString(),
    };
    await captureQueues(() => armOnMissedCheckins(servicesAt(start + 2 * HOUR), stale));
    expect((await messageRow(m.id))!.status).toBe('scheduled');
  });
});

describe('vacation pauses', () => {
  it('refuses a pause longer than 60 days, or one that ends in the past, with a plain 422 detail', async () => {
    const user = await owner();
    const canary = await createCanaryFor(user.token);
    const tooLong = await api('POST', `/api/canary/${canary.id}/pause`, { token: user.token, json: { until: new Date(Date.now() + 61 * DAY).toISOString() } });
    expect(tooLong.status).toBe(422);
    expect(tooLong.data.detail).toMatch(/^A pause may last at most 60 days/);
    const past = await api('POST', `/api/canary/${canary.id}/pause`, { token: user.token, json: { until: new Date(Date.now() - DAY).toISOString() } });
    expect(past.status).toBe(422);
    expect(past.data.detail).toBe('A pause must end in the future.');
    const garbled = await api('POST', `/api/canary/${canary.id}/pause`, { token: user.token, json: { until: 'next week' } });
    expect(garbled.status).toBe(422);
    const missing = await api('POST', `/api/canary/${canary.id}/pause`, { token: user.token, json: {} });
    expect(missing.status).toBe(422);
    expect(missing.data.detail).toMatch(/^Say when the pause ends/);
  });

  it('counts no miss and sends no warning while paused, tells the owner a day before it ends, and counts from its end', async () => {
    const user = await owner();
    const canary = await createCanaryFor(user.token, { interval_seconds: 3600 });
    const start = Date.parse(canary.last_check_in);
    const until = start + 10 * DAY;
    const paused = await pauseCanary(servicesAt(start + 60_000), user.id, canary.id, { until: new Date(until).toISOString() });
    expect(paused.paused_until).toBe(new Date(until).toISOString());
    expect(Date.parse(paused.deadline)).toBe(until + HOUR);
    expect(paused.status).toBe('active');

    // Where the interval's deadline would have been, and days into the pause: nothing is due.
    for (const at of [start + HOUR, start + 2 * DAY, until - DAY - 1]) {
      const run = await captureJobs(() => advanceCanary(servicesAt(at), canary.id, 'alarm'));
      expect(run.sent).toEqual([]);
    }
    // A day before the end, the owner is told (once), through the owner-notice path.
    const notice = await captureJobs(() => advanceCanary(servicesAt(until - DAY), canary.id, 'alarm'));
    expect(canaryNotices(notice.sent)).toEqual(['pause_ending']);
    expect(await deliverNotices(notice.sent, until - DAY)).toEqual(['sent']);
    const subject = await env.DB.prepare("SELECT subject FROM owner_notices WHERE canary_id = ? AND kind = 'canary_pause_ending'")
      .bind(canary.id)
      .first<{ subject: string }>();
    expect(subject?.subject).toMatch(/vacation pause .* ends/);
    expect((await captureJobs(() => advanceCanary(servicesAt(until - DAY + HOUR), canary.id, 'alarm'))).sent).toEqual([]);

    // After the pause, the interval counts from its end: grace at 48 min, the miss at one hour.
    const grace = await captureJobs(() => advanceCanary(servicesAt(until + 0.8 * HOUR), canary.id, 'alarm'));
    expect(canaryNotices(grace.sent)).toEqual(['grace_reminder']);
    await deliverNotices(grace.sent, until + 0.8 * HOUR);
    const miss = await captureJobs(() => advanceCanary(servicesAt(until + HOUR), canary.id, 'alarm'));
    expect(missedEvents(miss.sent)).toEqual([expect.objectContaining({ misses: 1, deadline: new Date(until + HOUR).toISOString() })]);
  });

  it('resume ends the pause now and re-arms the deadline from now', async () => {
    const user = await owner();
    const canary = await createCanaryFor(user.token, { schedule: weekly });
    const start = Date.parse(canary.last_check_in);
    await pauseCanary(servicesAt(start + 60_000), user.id, canary.id, { until: new Date(start + 30 * DAY).toISOString() });
    const resumedAt = start + 20 * DAY;
    const resumed = await resumeCanary(servicesAt(resumedAt), user.id, canary.id);
    expect(resumed.paused_until).toBeNull();
    expect(Date.parse(resumed.deadline)).toBe(nextOccurrence(weekly, resumedAt + 2 * HOUR));
    const timer = await env.DB.prepare('SELECT timer_due_at FROM canaries WHERE id = ?').bind(canary.id).first<{ timer_due_at: number }>();
    expect(timer!.timer_due_at).toBe(Date.parse(resumed.deadline) - 2 * HOUR);
    await expect(resumeCanary(servicesAt(resumedAt + 1), user.id, canary.id)).rejects.toThrow(/is not paused/);
    const { results } = await env.DB.prepare('SELECT kind, summary FROM activity WHERE canary_id = ? ORDER BY created_at')
      .bind(canary.id)
      .all<{ kind: string; summary: string }>();
    expect(results.map((r) => r.kind)).toEqual(['canary_created', 'canary_paused', 'canary_resumed']);
    expect(results[1]!.summary).toMatch(/^Paused canary "Unnamed" for a vacation until /);
  });

  it('after a pause, a backlog of more than 500 misses is recorded in bounded runs, the next run armed at once', async () => {
    // docs/decisions/canary-engine.md, "A long backlog is recorded in bounded runs": the pause (its end
    // stored, its notice recorded) must not keep a capped run from asking for the next one at once.
    const user = await owner();
    const canary = await createCanaryFor(user.token, { interval_seconds: 300 });
    const start = Date.parse(canary.last_check_in);
    const until = start + 2 * DAY;
    await pauseCanary(servicesAt(start + 60_000), user.id, canary.id, { until: new Date(until).toISOString() });
    expect(canaryNotices((await captureJobs(() => advanceCanary(servicesAt(until - DAY), canary.id, 'alarm'))).sent)).toEqual(['pause_ending']);
    const deadline = until + 300_000;
    const back = deadline + 519 * 300_000; // the timer down for 43 hours after the pause: misses 1…520 are due
    const first = await captureJobs(() => advanceCanary(servicesAt(back), canary.id, 'reconciler', { armsTimer: true }));
    const missed = async () => (await transitionsOf(canary.id)).filter((t) => t.kind === 'missed' && t.cycle_deadline === deadline);
    expect(await missed()).toHaveLength(500);
    expect(first.result.nextDueAt?.getTime()).toBe(back + 1);
    const timer = await env.DB.prepare('SELECT timer_due_at FROM canaries WHERE id = ?').bind(canary.id).first<{ timer_due_at: number }>();
    expect(timer!.timer_due_at).toBe(back + 1);
    const second = await captureJobs(() => advanceCanary(servicesAt(back + 1), canary.id, 'alarm'));
    expect((await missed()).map((t) => t.misses).sort((a, b) => a - b)).toEqual(Array.from({ length: 520 }, (_, i) => i + 1));
    expect(second.result.nextDueAt!.getTime()).toBeGreaterThan(back + 1);
    // Recorded far more than a grace period late: re-warned, nothing counts yet.
    expect(missedEvents([...first.sent, ...second.sent])).toEqual([]);
  });

  it('refuses to pause or reschedule a canary that has missed its deadline (409: check in first)', async () => {
    const user = await owner();
    const canary = await createCanaryFor(user.token, { interval_seconds: 3600 });
    const late = Date.parse(canary.deadline) + 60_000;
    await captureJobs(() => advanceCanary(servicesAt(late), canary.id, 'alarm'));
    await expect(pauseCanary(servicesAt(late), user.id, canary.id, { until: new Date(late + DAY).toISOString() })).rejects.toThrow(/check in first/);
  });
});

describe('the OpenAPI document', () => {
  it('documents the schedule on create, the update, pause and resume calls, and the schedule and pause on a canary', () => {
    const doc = JSON.parse(JSON.stringify(buildOpenApiDocument())) as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
    };
    expect(Object.keys(doc.paths['/api/canary/{id}'] ?? {})).toEqual(expect.arrayContaining(['patch', 'delete']));
    expect(doc.paths['/api/canary/{id}/pause']?.post).toBeDefined();
    expect(doc.paths['/api/canary/{id}/resume']?.post).toBeDefined();
    const create = JSON.stringify(doc.paths['/api/canary/create']?.post);
    for (const word of ['schedule', 'weekly', 'monthly_day', 'monthly_weekday', 'time_zone', 'grace_seconds']) expect(create).toContain(word);
    const list = JSON.stringify(doc.paths['/api/canary/list']?.get);
    for (const word of ['schedule_words', 'paused_until']) expect(list).toContain(word);
    expect(JSON.stringify(doc.paths['/api/canary/{id}/pause']?.post)).toContain('until');
  });
});
