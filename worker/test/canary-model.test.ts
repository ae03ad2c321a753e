import { schema, createDb } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { env, runInDurableObject } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reconcileCanaries } from '../src/cron/reconcile-canaries';
import { advanceCanary } from '../src/domains/canary/advance-canary';
import { checkInAll, checkInWithToken } from '../src/domains/canary/check-in';
import { checkInSender } from '../src/domains/canary/check-in-sender';
import { createCanary } from '../src/domains/canary/create-canary';
import { deleteCanary } from '../src/domains/canary/delete-canary';
import { pauseCanary, resumeCanary } from '../src/domains/canary/update-canary';
import { maxGraceSeconds, PAUSE_MAX_DAYS, shortestGapDays, type TCanarySchedule, WEEKDAYS } from '../src/contracts/canary-schedule';
import type { CanaryNoticeJob, MissedCheckinsEvent } from '../src/contracts/jobs';
import { clockOf } from '../src/domains/canary/canary-timer';
import { createServiceContext } from '../src/wiring/service-context';
import { signedInUser } from './helpers/api';
import { servicesAt, transitionsOf } from './helpers/canary';
import { checkInWithQueueDown, dbRefusingBatches, queueDown } from './helpers/canary-clock';
import { byKey, CanaryModel, type ModelCanary } from './helpers/canary-model';

/**
 * Model-based property test of the canary engine (docs/decisions/canary-engine.md): random sequences of clock jumps,
 * timer runs (alarm, alarm re-run, reconciler), queue outages, check-ins, creates and deletes, checked
 * after every step against the reference model in helpers/canary-model.ts.
 *
 * The fake clock starts 10 minutes after the real one, and every interval is ≥ 5 minutes, so the real
 * Durable Objects (armed by create and check-in with the real clock) never find anything due.
 *
 * On failure fast-check prints `{ seed, path }` and the shrunk steps. Replay:
 *   VITE_FC_PROPERTY=safety|liveness VITE_FC_SEED=<seed> VITE_FC_PATH=<path> pnpm exec vitest run test/canary-model.test.ts
 */
// Vite passes VITE_* variables from the shell into the workerd test runtime (process.env is not).
const penv: Record<string, string | undefined> = (import.meta as { env?: Record<string, string | undefined> }).env ?? {};
const replay = (property: 'safety' | 'liveness') =>
  penv.VITE_FC_SEED && (penv.VITE_FC_PROPERTY ?? property) === property ? { seed: Number(penv.VITE_FC_SEED), path: penv.VITE_FC_PATH, endOnFailure: true } : {};
/** VITE_FC_RUNS=<n> for a longer soak than the default (which keeps the file well under a minute). */
const runs = (n: number) => (penv.VITE_FC_RUNS ? Number(penv.VITE_FC_RUNS) : n);

const MINUTE = 60_000;
const DAY_MS = 24 * 3600_000;
/** Cloudflare Queues accepts at most 100 messages per sendBatch (the local runtime throws beyond). */
const QUEUE_BATCH_LIMIT = 100;
/**
 * Timer outages of ~100+ intervals (a catch-up of more than one queue batch of misses). They found the
 * unchunked sendBatch bug, now fixed (see the regression test below).
 */
const LONG_OUTAGES = true;
const MAX_CANARIES = 3;
const REAL_CLOCK_MARGIN = 10 * MINUTE;
/**
 * Durable Object alarms take no instant after 2189 ("This API doesn't support dates after 2189"), and a
 * check-in arms its object's alarm at the new cycle's grace start. A real clock is far from that; the fake
 * one gets there after long outages of 400-day canaries (seed -279291786), so check-ins stop there.
 */
const ALARM_LIMIT = Date.UTC(2189, 0, 1);
const armableAfterCheckIn = (world: World, canaries: readonly ModelCanary[]) => canaries.every((c) => world.now + c.intervalMs < ALARM_LIMIT);

/**
 * Instants worth landing on exactly (±1 ms): grace start, the deadline, a later miss, the end of a fresh
 * grace period, the engine's requested wake, one grace period after the deadline (the "late" limit) and
 * one grace period minus the tolerance after the reminder (the "warned" limit).
 */
/** boundaryCycle: the reminder's delay after grace start (or none), then where the first miss is run. */
type Remind = 'none' | '0' | '1' | 'tol-1' | 'tol' | 'tol+1' | 'half';
type FirstMiss = 'D' | 'D+1' | 'D+g-1' | 'D+g' | 'D+g+1' | 'warned-1' | 'warned' | 'warned+1';
type StepTarget = 'graceStart' | 'deadline' | 'miss' | 'countsFrom' | 'timer' | 'lateLimit' | 'warnedLimit';
type Step =
  | { t: 'advance'; ms: number }
  | { t: 'advanceIntervals'; permille: number }
  | { t: 'outage'; intervals: number }
  | { t: 'boundaryCycle'; c: number; remind: Remind; miss: FirstMiss }
  | { t: 'landOn'; c: number; at: StepTarget; k: number; off: -1 | 0 | 1 }
  | { t: 'run'; c: number; by: 'alarm' | 'reconciler'; twice: boolean }
  | { t: 'sendFails'; c: number }
  | { t: 'reconcile' }
  | { t: 'checkInAll' }
  /**
   * The Heartbeat, with every canary's object failing to hear it (`noteCheckIn` throws: the object reset before it
   * answered): D1 has the check-in, the objects do not — until a wake that would record or send something reads it.
   */
  | { t: 'checkInAllUnheard' }
  | { t: 'checkInToken'; c: number }
  /**
   * A token check-in the canary's object accepts whose projection never leaves the Worker (its isolate gone
   * before its send, or the PROJECTIONS queue down): only a settle or the object's next wake tells D1.
   */
  | { t: 'checkInLagging'; c: number }
  /** A token check-in whose Worker send fails: the Worker hands it back to the canary's object, which queues it itself. */
  | { t: 'checkInHandedBack'; c: number }
  /**
   * The owner's channels accept a warning that was sent (the oldest or newest still undelivered) now: a
   * warning delivered late (quiet hours, a channel back after an outage) or never (no such step).
   */
  | { t: 'deliver'; c: number; which: 'oldest' | 'newest' }
  /**
   * One cycle whose reminder reaches the owner late or never: the first miss re-warns, the re-warning (or
   * the late reminder) is delivered `permille` of a grace period later, and the timer runs at the end of
   * the fresh grace period it starts, ±1 ms.
   */
  | { t: 'rewarnCycle'; c: number; reminder: 'never' | 'late'; permille: number; off: -1 | 0 | 1 }
  | { t: 'create'; ratio: 0.5 | 1 | 2 }
  /** A calendar canary (docs/decisions/calendar-schedules.md): its deadlines fall on scheduled wall times in a zone. */
  | { t: 'createCalendar'; schedule: TCanarySchedule }
  /**
   * The owner pauses a canary for a vacation of `permille` of 60 days (at least a minute); refused once
   * missed — unless `checkInFirst`, where the owner does what the 409 says: checks in (by its token), then pauses.
   * `backEarly`: the owner ends it `backEarly` thousandths of the way through, after the object's wakes until then.
   */
  | { t: 'pause'; c: number; permille: number; checkInFirst?: boolean; backEarly?: number }
  /**
   * The owner ends a pause early, `within` thousandths of the way from now to its end: `c` picks among the
   * canaries paused now (any canary when none is, to see the refusal).
   */
  | { t: 'resume'; c: number; within?: number }
  | { t: 'delete'; c: number };

const intervalArb = fc.oneof(fc.constantFrom(300, 600, 3600, 86_400, 604_800, 34_560_000), fc.integer({ min: 300, max: 864_000 }));
const canaryIdx = fc.nat({ max: MAX_CANARIES - 1 });

const scheduleArb: fc.Arbitrary<TCanarySchedule> = fc
  .record({
    rule: fc.oneof(
      fc.record({ kind: fc.constant('weekly' as const), days: fc.uniqueArray(fc.constantFrom(...WEEKDAYS), { minLength: 1, maxLength: 7 }) }),
      fc.record({ kind: fc.constant('monthly_day' as const), day: fc.constantFrom(1, 15, 29, 31) }),
      fc.record({
        kind: fc.constant('monthly_weekday' as const),
        week: fc.constantFrom('first' as const, 'last' as const),
        weekday: fc.constantFrom(...WEEKDAYS),
      }),
    ),
    time: fc.constantFrom('02:30', '10:00', '23:59', '00:00'),
    time_zone: fc.constantFrom('Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'America/Santiago', 'Asia/Kolkata', 'Pacific/Apia'),
    grace: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(
    ({ rule, time, time_zone, grace }) =>
      ({ ...rule, time, time_zone, grace_seconds: 60 + Math.floor(grace * (maxGraceSeconds(rule) - 60)) }) as TCanarySchedule,
  );

const boundaryArb = fc.record({
  t: fc.constant('boundaryCycle' as const),
  c: canaryIdx,
  remind: fc.constantFrom<Remind>('none', '0', '1', 'tol-1', 'tol', 'tol+1', 'half'),
  miss: fc.constantFrom<FirstMiss>('D', 'D+1', 'D+g-1', 'D+g', 'D+g+1', 'warned-1', 'warned', 'warned+1'),
});
const outageArb = fc.record({ t: fc.constant('outage' as const), intervals: fc.integer({ min: 90, max: 130 }) });
const stepArb = (outages: boolean): fc.Arbitrary<Step> =>
  fc.oneof(
    { arbitrary: boundaryArb, weight: 3 },
    { arbitrary: outages ? outageArb : fc.constant({ t: 'advance' as const, ms: 1 }), weight: 1 },
    {
      arbitrary: fc.record({ t: fc.constant('advance' as const), ms: fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 10 * MINUTE })) }),
      weight: 2,
    },
    {
      arbitrary: fc.record({
        t: fc.constant('advanceIntervals' as const),
        permille: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 3500 })),
      }),
      weight: 3,
    },
    {
      arbitrary: fc.record({
        t: fc.constant('landOn' as const),
        c: canaryIdx,
        at: fc.constantFrom<StepTarget>('graceStart', 'deadline', 'miss', 'countsFrom', 'timer', 'lateLimit', 'warnedLimit'),
        k: fc.integer({ min: 1, max: 3 }),
        off: fc.constantFrom<-1 | 0 | 1>(0, 0, -1, 1),
      }),
      weight: 4,
    },
    {
      arbitrary: fc.record({
        t: fc.constant('run' as const),
        c: canaryIdx,
        by: fc.constantFrom<'alarm' | 'reconciler'>('alarm', 'alarm', 'reconciler'),
        twice: fc.boolean(),
      }),
      weight: 5,
    },
    { arbitrary: fc.record({ t: fc.constant('sendFails' as const), c: canaryIdx }), weight: 2 },
    { arbitrary: fc.constant({ t: 'reconcile' as const }), weight: 2 },
    { arbitrary: fc.constant({ t: 'checkInAll' as const }), weight: 1 },
    { arbitrary: fc.constant({ t: 'checkInAllUnheard' as const }), weight: 1 },
    { arbitrary: fc.record({ t: fc.constant('checkInToken' as const), c: canaryIdx }), weight: 1 },
    { arbitrary: fc.record({ t: fc.constant('checkInLagging' as const), c: canaryIdx }), weight: 1 },
    { arbitrary: fc.record({ t: fc.constant('checkInHandedBack' as const), c: canaryIdx }), weight: 1 },
    { arbitrary: fc.record({ t: fc.constant('deliver' as const), c: canaryIdx, which: fc.constantFrom<'oldest' | 'newest'>('oldest', 'newest') }), weight: 4 },
    {
      arbitrary: fc.record({
        t: fc.constant('rewarnCycle' as const),
        c: canaryIdx,
        reminder: fc.constantFrom<'never' | 'late'>('never', 'late'),
        permille: fc.integer({ min: 0, max: 3000 }),
        off: fc.constantFrom<-1 | 0 | 1>(-1, 0, 1),
      }),
      weight: 2,
    },
    { arbitrary: fc.record({ t: fc.constant('create' as const), ratio: fc.constantFrom<0.5 | 1 | 2>(0.5, 1, 2) }), weight: 1 },
    { arbitrary: fc.record({ t: fc.constant('createCalendar' as const), schedule: scheduleArb }), weight: 1 },
    {
      arbitrary: fc.record({
        t: fc.constant('pause' as const),
        c: canaryIdx,
        permille: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 30 })),
        checkInFirst: fc.boolean(),
        backEarly: fc.option(fc.integer({ min: 0, max: 999 }), { nil: undefined }),
      }),
      weight: 2,
    },
    {
      arbitrary: fc.record({ t: fc.constant('resume' as const), c: canaryIdx, within: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 999 })) }),
      weight: 2,
    },
    { arbitrary: fc.record({ t: fc.constant('delete' as const), c: canaryIdx }), weight: 1 },
  );
const outagesOn = LONG_OUTAGES || penv.VITE_FC_OUTAGES === '1';

let user: User;

beforeAll(async () => {
  const account = await signedInUser();
  // Pro: unlimited canaries, so "create" is never refused by the plan limit.
  await env.DB.prepare("UPDATE users SET plan = 'pro' WHERE id = ?").bind(account.id).run();
  const [row] = await createDb(env.DB).select().from(schema.users).where(eq(schema.users.id, account.id)).limit(1);
  user = row!;
});

/** What the generated runs actually exercised (printed at the end, so a weak generator shows). */
const stats = {
  safetyRuns: 0,
  steps: 0,
  emitted: 0,
  emittedMissesAbove1: 0,
  timerRuns: 0,
  rewarnedCycles: 0,
  emittedAfterRewarn: 0,
  failedSends: 0,
  reconcilerCatchUps: 0,
  checkInsEndingMissedCycle: 0,
  heartbeatsUnheard: 0,
  deletesWithPendingMiss: 0,
  livenessRuns: 0,
  livenessEmitted: 0,
  warningsSent: 0,
  warningsDelivered: 0,
  cyclesWaitingForAWarning: 0,
  calendarCanaries: 0,
  pauses: 0,
  resumes: 0,
  pauseNotices: 0,
  /** Pause steps on a missed canary without a check-in first: refused (409). */
  pausesRefused: 0,
  /** Resume steps while none of the run's canaries was paused: refused (409). */
  resumesRefused: 0,
};

// The engine logs every emission (console.log) and every repaired timer (console.warn): thousands of lines here.
const quiet = [vi.spyOn(console, 'log').mockImplementation(() => {}), vi.spyOn(console, 'warn').mockImplementation(() => {})];
afterAll(() => {
  for (const s of quiet) s.mockRestore();
  console.info('canary model coverage', JSON.stringify(stats));
});

/** One run's world: the fake clock, the model, the engine's answer about each timer's next wake. */
class World {
  now: number;
  readonly model: CanaryModel;
  readonly timerDue = new Map<string, number | null>();
  failSend = false;
  refIntervalMs = 0;
  /** Warnings the engine sent to the owner's channels and no channel has accepted yet, by their id (oldest first). */
  readonly undelivered = new Map<string, CanaryNoticeJob>();

  constructor(base: number) {
    this.now = base;
    this.model = new CanaryModel(base);
  }

  pick(i: number): ModelCanary | undefined {
    const live = this.model.live();
    return live.length ? live[i % live.length] : undefined;
  }

  ctx() {
    return servicesAt(this.now);
  }
}

async function resetDb() {
  await env.DB.batch([env.DB.prepare('DELETE FROM canaries'), env.DB.prepare('DELETE FROM canary_transitions')]);
}

/** Every `missed_checkins` event goes through the model's safety checks at the fake time it is sent. */
function spyOnQueue(world: World) {
  return vi.spyOn(env.JOBS, 'sendBatch').mockImplementation(async (messages) => {
    if (world.failSend) throw new Error('queue unavailable (simulated)');
    const batch = [...messages];
    if (batch.length > QUEUE_BATCH_LIMIT) throw new Error(`sendBatch of ${batch.length} messages: Queues accept at most ${QUEUE_BATCH_LIMIT}`);
    for (const m of batch) {
      const notice = m.body as CanaryNoticeJob;
      if (notice.type === 'canary_notice') checkNotice(world, notice);
      if (notice.type === 'canary_notice' && notice.kind === 'pause_ending') continue; // told, not a warning a miss waits for
      if (notice.type === 'canary_notice' && notice.kind !== 'missed' && !world.undelivered.has(notice.transition_id)) {
        world.undelivered.set(notice.transition_id, notice);
        stats.warningsSent++;
      }
      const body = m.body as MissedCheckinsEvent;
      if (body.type !== 'missed_checkins') continue;
      world.model.observeEmission(body, world.now);
      stats.emitted++;
      if (body.misses > 1) stats.emittedMissesAbove1++;
      const c = world.model.canaries.get(body.canary_id);
      if (c && world.model.cycle(c, Date.parse(body.deadline)).rewarned) stats.emittedAfterRewarn++;
    }
    return undefined as unknown as QueueSendBatchResponse;
  });
}

/**
 * No warning and no pause notice goes out while a canary is paused, and none outside its window: a warning
 * only from its cycle's grace start, for the current cycle; the pause notice only in the pause's last day.
 */
function checkNotice(world: World, notice: CanaryNoticeJob) {
  const c = world.model.canaries.get(notice.canary_id);
  if (!c) return;
  const where = `${notice.kind} notice of ${c.id.slice(0, 8)} sent at ${world.model.rel(world.now)}`;
  if (notice.kind === 'pause_ending') {
    stats.pauseNotices++;
    if (c.pausedUntil === null || world.now < c.pausedUntil - DAY_MS || world.now >= c.pausedUntil)
      world.model.violations.push(`${where}: outside the last day of a pause`);
    return;
  }
  if (c.pausedUntil !== null && world.now < c.pausedUntil) world.model.violations.push(`${where}: during a pause`);
  if (notice.kind === 'grace_reminder' && world.now < notice.cycle_deadline - c.graceMs) world.model.violations.push(`${where}: before its grace period`);
}

async function create(world: World, intervalSeconds: number, schedule: TCanarySchedule | null = null) {
  const view = await createCanary(world.ctx(), user, { interval_seconds: intervalSeconds, name: '', schedule });
  world.model.add(view.id, view.token, view.interval_seconds, world.now, view.schedule);
  const c = world.model.canaries.get(view.id)!;
  expect(Date.parse(view.deadline), 'a new canary’s deadline').toBe(world.model.deadlineOf(c));
  world.timerDue.set(view.id, Date.parse(view.deadline) - c.graceMs);
  if (schedule) stats.calendarCanaries++;
  if (!world.refIntervalMs) world.refIntervalMs = view.interval_seconds * 1000;
}

async function timerDueOf(canaryId: string) {
  return (await env.DB.prepare('SELECT timer_due_at FROM canaries WHERE id = ?').bind(canaryId).first<{ timer_due_at: number | null }>())?.timer_due_at ?? null;
}

/** A timer run (alarm or reconciler) for `c` at the fake now; checks catch-up and the next wake. */
async function runTimer(world: World, c: ModelCanary, by: 'alarm' | 'reconciler') {
  modelTimerRun(world, c);
  const { nextDueAt } = await advanceCanary(world.ctx(), c.id, by);
  afterTimerRun(world, c, nextDueAt?.getTime() ?? null);
}

function modelTimerRun(world: World, c: ModelCanary) {
  const wasRecorded = world.model.cycle(c).firstMissAt !== null;
  world.model.timerRun(c, world.now);
  stats.timerRuns++;
  if (!wasRecorded && world.model.cycle(c).rewarned) stats.rewarnedCycles++;
}

/**
 * A channel accepts one of `c`'s sent warnings now (or all of them, `which` 'all'): the engine hears it
 * (CanaryClock.warningDelivered, as the notice consumer calls it) and runs at the same instant.
 */
async function deliver(world: World, c: ModelCanary, which: 'oldest' | 'newest' | 'all') {
  // A delivery runs the engine and arms the object's alarm, which refuses instants after 2189 (as check-ins do).
  if (!armableAfterCheckIn(world, [c])) return;
  const mine = [...world.undelivered.values()].filter((w) => w.canary_id === c.id);
  const picked = which === 'all' ? mine : which === 'oldest' ? mine.slice(0, 1) : mine.slice(-1);
  for (const w of picked) {
    world.undelivered.delete(w.transition_id);
    stats.warningsDelivered++;
    world.model.deliver(c, w.kind as 'grace_reminder' | 'late_rewarn', w.cycle_deadline, world.now);
    modelTimerRun(world, c);
    const next = await clockOf(env, c.id).warningDelivered(c.id, w.transition_id, world.now, 'email', world.now);
    afterTimerRun(world, c, next);
  }
}

/** A recorded miss of the current cycle that was not emitted yet (a check-in or delete now must stop it). */
const hasPendingMiss = (world: World, c: ModelCanary) => {
  const cy = world.model.cycle(c);
  return cy.maxRecorded > cy.emitted.size;
};

function afterTimerRun(world: World, c: ModelCanary, next: number | null) {
  const { model, now } = world;
  if (c.deleted) {
    expect(next, 'a deleted canary needs no timer').toBeNull();
    return;
  }
  expect(model.emittedNow(c), `after a timer run at ${model.rel(now)}, every due and counting miss of the current cycle is emitted`).toEqual(
    model.expectedEmitted(c, now),
  );
  expect(next, 'the timer is re-armed').not.toBeNull();
  const due = model.nextDue(c, now);
  expect(next!, 'the next wake is in the future').toBeGreaterThan(now);
  expect(next!, `the timer must not sleep past the next due instant ${model.rel(due)}`).toBeLessThanOrEqual(due);
  world.timerDue.set(c.id, next);
}

/**
 * A token check-in may move its object's alarm later (CanaryClock.recordAndRearm): wherever it leaves it, the
 * alarm is armed and does not sleep past the canary's next due instant.
 */
async function expectAlarmByNextDue(world: World, c: ModelCanary) {
  const alarm = await runInDurableObject(clockOf(env, c.id), (_: unknown, state: DurableObjectState) => state.storage.getAlarm());
  expect(alarm, 'a check-in leaves its object an alarm').not.toBeNull();
  expect(alarm!, `after a check-in at ${world.model.rel(world.now)} the alarm must not sleep past the next due instant`).toBeLessThanOrEqual(
    world.model.nextDue(c, world.now),
  );
}

/** D1's copy of the timer is what the reconciler's scan for lost alarms reads: never later than the next due instant. */
async function expectD1TimerByNextDue(world: World, c: ModelCanary) {
  const row = await env.DB.prepare('SELECT timer_due_at FROM canaries WHERE id = ?').bind(c.id).first<{ timer_due_at: number | null }>();
  expect(row?.timer_due_at, 'D1 holds a timer for a live canary').not.toBeNull();
  expect(row!.timer_due_at!, `after a Heartbeat at ${world.model.rel(world.now)} D1's timer must not sleep past the next due instant`).toBeLessThanOrEqual(
    world.model.nextDue(c, world.now),
  );
}

async function step(world: World, s: Step) {
  const { model } = world;
  switch (s.t) {
    case 'advance':
      world.now += s.ms;
      return;
    case 'boundaryCycle': {
      // One cycle driven across the rule boundaries: the reminder at grace start + δ, then the first
      // miss at the deadline, at the "late" limit D + g, or at the "warned" limit (reminder + g − tolerance), ±1 ms.
      const c = world.pick(s.c);
      if (!c) return;
      const cy = model.cycle(c);
      const graceStart = cy.deadline - c.graceMs;
      if (world.now > graceStart || cy.reminderAt !== null) return;
      const tol = c.toleranceMs;
      const delta = { none: null, '0': 0, '1': 1, 'tol-1': tol - 1, tol, 'tol+1': tol + 1, half: c.graceMs / 2 }[s.remind];
      if (delta !== null) {
        world.now = graceStart + delta;
        await runTimer(world, c, 'alarm');
        await deliver(world, c, 'all');
      }
      const warned = graceStart + (delta ?? 0) + c.graceMs - tol;
      const d = cy.deadline;
      const g = c.graceMs;
      const target = { D: d, 'D+1': d + 1, 'D+g-1': d + g - 1, 'D+g': d + g, 'D+g+1': d + g + 1, 'warned-1': warned - 1, warned, 'warned+1': warned + 1 }[
        s.miss
      ];
      world.now = Math.max(world.now, d, target);
      await runTimer(world, c, 'alarm');
      return;
    }
    case 'outage': {
      const shortest = Math.min(world.refIntervalMs, ...model.live().map((c) => c.intervalMs));
      world.now += s.intervals * shortest;
      return;
    }
    case 'advanceIntervals': {
      const shortest = Math.min(world.refIntervalMs, ...model.live().map((c) => c.intervalMs));
      world.now += Math.round((shortest * s.permille) / 1000);
      return;
    }
    case 'landOn': {
      const c = world.pick(s.c);
      if (!c) return;
      const cy = model.cycle(c);
      const target =
        s.at === 'graceStart'
          ? cy.deadline - c.graceMs
          : s.at === 'deadline'
            ? cy.deadline
            : s.at === 'miss'
              ? model.dueOf(c, cy.deadline, s.k + 1)
              : s.at === 'countsFrom'
                ? cy.countsFrom
                : s.at === 'lateLimit'
                  ? cy.deadline + c.graceMs
                  : s.at === 'warnedLimit'
                    ? cy.reminderAt === null
                      ? null
                      : cy.reminderAt + c.graceMs - c.toleranceMs
                    : world.timerDue.get(c.id);
      if (target != null && target + s.off > world.now) world.now = target + s.off;
      return;
    }
    case 'run': {
      const c = world.pick(s.c);
      if (!c) return;
      await runTimer(world, c, s.by);
      if (s.twice) await runTimer(world, c, s.by);
      return;
    }
    case 'sendFails': {
      const c = world.pick(s.c);
      if (!c) return;
      modelTimerRun(world, c);
      world.failSend = true;
      try {
        const { nextDueAt } = await advanceCanary(world.ctx(), c.id, 'alarm');
        afterTimerRun(world, c, nextDueAt?.getTime() ?? null); // nothing was due to send
      } catch (err) {
        expect(String(err)).toMatch(/queue unavailable/);
        stats.failedSends++;
      } finally {
        world.failSend = false;
      }
      return;
    }
    case 'reconcile': {
      // The canaries the reconciler runs (reconcile-canaries.ts): a timer missing or overdue in D1, or a
      // counted miss of the cycle D1 takes for current not sent yet — D1's last check-in may lag a token
      // check-in's, so that can be a cycle the object has ended (a harmless extra run, at any instant).
      const { results } = await env.DB.prepare(
        `SELECT id FROM canaries WHERE active = 1 AND (timer_due_at IS NULL OR timer_due_at <= ?1)
         UNION SELECT t.canary_id FROM canary_transitions t JOIN canaries c ON c.id = t.canary_id
           WHERE t.kind = 'missed' AND t.emitted_at IS NULL AND t.counts_from <= ?1 AND t.cycle_deadline > c.last_check_in`,
      )
        .bind(world.now - 30_000)
        .all<{ id: string }>();
      const stale = results.map((r) => model.canaries.get(r.id)!).filter((c) => !c.deleted);
      for (const c of stale) modelTimerRun(world, c);
      await reconcileCanaries(world.ctx());
      for (const c of stale) {
        if (model.expectedEmitted(c, world.now).length) stats.reconcilerCatchUps++;
        expect(model.emittedNow(c), `the reconciler caught up ${c.id.slice(0, 8)} at ${model.rel(world.now)}`).toEqual(model.expectedEmitted(c, world.now));
        // It re-armed the timer: by the next due instant, and at once while a backlog of misses remains.
        const next = await timerDueOf(c.id);
        expect(next, `the reconciler re-armed ${c.id.slice(0, 8)}`).toBeGreaterThan(world.now);
        expect(next!, `the reconciler re-armed ${c.id.slice(0, 8)} by ${model.rel(model.nextDue(c, world.now))}`).toBeLessThanOrEqual(
          model.nextDue(c, world.now),
        );
        world.timerDue.set(c.id, next);
      }
      return;
    }
    case 'checkInAll':
      if (!armableAfterCheckIn(world, model.live())) return;
      for (const c of model.live()) {
        if (hasPendingMiss(world, c)) stats.checkInsEndingMissedCycle++;
        model.checkIn(c, world.now);
      }
      await checkInAll(world.ctx(), user.id, 'web');
      // The Heartbeat moves each timer as a token check-in does, and D1's copy after it: neither past the next need.
      for (const c of model.live()) {
        await expectAlarmByNextDue(world, c);
        await expectD1TimerByNextDue(world, c);
      }
      return;
    case 'checkInAllUnheard': {
      if (!armableAfterCheckIn(world, model.live())) return;
      for (const c of model.live()) {
        if (hasPendingMiss(world, c)) stats.checkInsEndingMissedCycle++;
        model.checkIn(c, world.now);
      }
      const unheard = {
        ...env,
        CANARY_CLOCK: {
          idFromName: (name: string) => env.CANARY_CLOCK.idFromName(name),
          get: () => ({ noteCheckIn: () => Promise.reject(new Error('the object was reset before it answered')) }),
        },
      };
      await checkInAll(
        createServiceContext(unheard as unknown as typeof env, () => new Date(world.now)),
        user.id,
        'web',
      );
      stats.heartbeatsUnheard++;
      // The objects' alarms stay where their old cycles needed them, and the wake there takes the check-in in
      // (CanaryClock catchUpWithD1). That wake can come after the new cycle's first need — its grace reminder — but
      // by at most one grace period: an old cycle's next miss is never later than that (interval canaries: the
      // check-in came after the last miss; calendar ones: the same scheduled instant, less its grace). This is the
      // bound of a Heartbeat the object did not hear; a heard one moves the alarm (expectAlarmByNextDue).
      for (const c of model.live()) {
        const alarm = await runInDurableObject(clockOf(env, c.id), (_: unknown, state: DurableObjectState) => state.storage.getAlarm());
        expect(alarm, 'the object keeps an alarm').not.toBeNull();
        expect(alarm!, `after an unheard Heartbeat at ${model.rel(world.now)}, within a grace period of the next due instant`).toBeLessThanOrEqual(
          model.nextDue(c, world.now) + c.graceMs,
        );
      }
      return;
    }
    case 'checkInToken': {
      const c = world.pick(s.c);
      if (!c || !armableAfterCheckIn(world, [c])) return;
      if (hasPendingMiss(world, c)) stats.checkInsEndingMissedCycle++;
      model.checkIn(c, world.now);
      await checkInWithToken(world.ctx(), c.token, 'ping');
      await expectAlarmByNextDue(world, c);
      return;
    }
    case 'checkInLagging': {
      const c = world.pick(s.c);
      if (!c || !armableAfterCheckIn(world, [c])) return;
      if (hasPendingMiss(world, c)) stats.checkInsEndingMissedCycle++;
      model.checkIn(c, world.now);
      await checkInWithQueueDown(c.id, world.now);
      await expectAlarmByNextDue(world, c);
      return;
    }
    case 'checkInHandedBack': {
      const c = world.pick(s.c);
      if (!c || !armableAfterCheckIn(world, [c])) return;
      if (hasPendingMiss(world, c)) stats.checkInsEndingMissedCycle++;
      model.checkIn(c, world.now);
      await checkInSender(); // this check-in's own write is the one that fails
      await checkInWithToken({ ...world.ctx(), env: { ...env, DB: dbRefusingBatches(), PROJECTIONS: queueDown } }, c.token, 'ping');
      await expectAlarmByNextDue(world, c);
      return;
    }
    case 'deliver': {
      const c = world.pick(s.c);
      if (c) await deliver(world, c, s.which);
      return;
    }
    case 'rewarnCycle': {
      const c = world.pick(s.c);
      if (!c) return;
      const cy = model.cycle(c);
      const graceStart = cy.deadline - c.graceMs;
      if (world.now > graceStart || cy.reminderAt !== null) return;
      world.now = graceStart;
      await runTimer(world, c, 'alarm'); // the reminder is sent, and no channel takes it yet
      world.now = cy.deadline;
      await runTimer(world, c, 'alarm'); // the deadline: not warned, so re-warned
      world.now += Math.round((c.graceMs * s.permille) / 1000);
      await deliver(world, c, s.reminder === 'late' ? 'oldest' : 'newest');
      if (cy.countsFrom !== null) {
        world.now = Math.max(world.now, cy.countsFrom + s.off);
        await runTimer(world, c, 'alarm');
      }
      return;
    }
    case 'create': {
      // Within a factor 2 of the first canary's interval: one clock jump then never spans thousands of
      // another canary's intervals (a timer that many intervals late is a separate finding, see the report).
      const seconds = Math.min(34_560_000, Math.max(300, Math.round((world.refIntervalMs / 1000) * s.ratio)));
      if (model.live().length < MAX_CANARIES) await create(world, seconds);
      return;
    }
    case 'createCalendar':
      // Within a factor 2 of the first canary's interval too, as `create` (its scheduled days are at most this far apart).
      if (model.live().length < MAX_CANARIES && shortestGapDays(s.schedule) * DAY_MS <= 2 * world.refIntervalMs) await create(world, 86_400, s.schedule);
      return;
    case 'pause': {
      const c = world.pick(s.c);
      if (!c) return;
      if (s.checkInFirst && world.now >= model.deadlineOf(c)) {
        // "Check in first": most generated runs leave a canary missed (boundary cycles, outages), where a pause is refused.
        if (!armableAfterCheckIn(world, [c])) return;
        if (hasPendingMiss(world, c)) stats.checkInsEndingMissedCycle++;
        model.checkIn(c, world.now);
        await checkInWithToken(world.ctx(), c.token, 'ping');
      }
      const until = world.now + Math.max(MINUTE, Math.round((PAUSE_MAX_DAYS * DAY_MS * s.permille) / 1000));
      // The pause re-arms the object's alarm after it: no instant past 2189 (as for check-ins).
      if (until + c.intervalMs + 62 * DAY_MS >= ALARM_LIMIT) return;
      const accepted = model.pause(c, until, world.now);
      const answer = pauseCanary(world.ctx(), user.id, c.id, { until: new Date(until).toISOString() });
      if (!accepted) {
        await expect(answer, 'a missed canary cannot be paused').rejects.toThrow(/check in first/);
        stats.pausesRefused++;
        return;
      }
      const view = await answer;
      stats.pauses++;
      expect(Date.parse(view.deadline), 'the deadline after a pause').toBe(model.deadlineOf(c));
      modelTimerRun(world, c); // the engine runs at once on the new cycle
      world.timerDue.set(c.id, await timerDueOf(c.id));
      if (s.backEarly === undefined) return;
      // Back early: the object wakes when it asked to (the pause-ending notice, in the pause's last day), then the owner resumes.
      const back = world.now + Math.floor(((until - world.now) * s.backEarly) / 1000);
      for (let due = world.timerDue.get(c.id); due != null && due <= back; due = world.timerDue.get(c.id)) {
        world.now = due;
        await runTimer(world, c, 'alarm');
      }
      world.now = Math.max(world.now, back);
      await resume(world, c);
      return;
    }
    case 'resume': {
      // Drawn independently of the pauses: picking any canary made nearly every resume land on one that was
      // not paused (a run has up to three canaries, and a pause is refused while missed), and a soak counted none.
      const paused = model.live().filter((x) => x.pausedUntil !== null && x.pausedUntil > world.now);
      const c = paused.length ? paused[s.c % paused.length] : world.pick(s.c);
      if (!c) return;
      // Back early, somewhere in the pause (its last day included, after the pause-ending notice).
      if (c.pausedUntil !== null && c.pausedUntil > world.now && s.within) {
        world.now = Math.min(c.pausedUntil - 1, world.now + Math.floor(((c.pausedUntil - world.now) * s.within) / 1000));
      }
      await resume(world, c);
      return;
    }
    case 'delete': {
      const c = world.pick(s.c);
      if (!c) return;
      if (hasPendingMiss(world, c)) stats.deletesWithPendingMiss++;
      model.delete(c);
      await deleteCanary(world.ctx(), user.id, c.id);
      return;
    }
  }
}

/** The owner ends `c`'s pause at the fake now: accepted while paused (the deadline counted from now), else 409. */
async function resume(world: World, c: ModelCanary) {
  const accepted = world.model.resume(c, world.now);
  const answer = resumeCanary(world.ctx(), user.id, c.id);
  if (!accepted) {
    await expect(answer, 'only a paused canary resumes').rejects.toThrow(/not paused/);
    stats.resumesRefused++;
    return;
  }
  expect(Date.parse((await answer).deadline), 'the deadline after a resume').toBe(world.model.deadlineOf(c));
  stats.resumes++;
  modelTimerRun(world, c);
  world.timerDue.set(c.id, await timerDueOf(c.id));
}

/** The recorded history in D1 equals the model's, row for row. */
async function checkRecorded(world: World) {
  const { results } = await env.DB.prepare(
    'SELECT canary_id, cycle_deadline, kind, misses, fired_at, counts_from, emitted_at, delivered_at FROM canary_transitions',
  ).all<{
    delivered_at: number | null;
    canary_id: string;
    cycle_deadline: number;
    kind: string;
    misses: number;
    fired_at: number;
    counts_from: number | null;
    emitted_at: number | null;
  }>();
  const actual = results
    .map((r) => ({
      canary: r.canary_id,
      cycle: r.cycle_deadline,
      kind: r.kind,
      misses: r.misses,
      ...(r.kind === 'missed'
        ? { ...(r.counts_from == null ? {} : { counts_from: r.counts_from }), emitted: r.emitted_at != null }
        : { fired_at: r.fired_at, delivered: r.delivered_at != null }),
    }))
    .sort((a, b) => a.canary.localeCompare(b.canary) || byKey(a, b));
  // A deleted canary's events went with it (db/migrations/0041_transitions_go_with_their_canary.sql).
  const expected = [...world.model.canaries.values()]
    .filter((c) => !c.deleted)
    .flatMap((c) => world.model.expectedTransitions(c).map((row) => ({ canary: c.id, ...row })))
    .sort((a, b) => a.canary.localeCompare(b.canary) || byKey(a, b));
  expect(actual, 'recorded transitions (grace_reminder / late_rewarn / missed k)').toEqual(expected);
  for (const c of world.model.canaries.values())
    if (world.model.cycle(c).rewarned && world.model.cycle(c).countsFrom === null) stats.cyclesWaitingForAWarning++;
}

describe('a catch-up of more than 100 misses (found with LONG_OUTAGES on)', () => {
  // Regression: Queues take at most 100 messages per sendBatch (the local runtime throws "Unknown
  // Internal Error (15000)"); a catch-up after a 100-interval outage used to send them in one call and
  // throw forever. The engine now sends in chunks of 100.
  it('emits all 101 counted misses once the fresh grace period ends', async () => {
    await resetDb();
    const start = Date.now() + REAL_CLOCK_MARGIN;
    const intervalMs = 300_000;
    const grace = intervalMs / 5;
    const view = await createCanary(servicesAt(start), user, { interval_seconds: 300, name: '' });
    const deadline = start + intervalMs;
    const warnings: CanaryNoticeJob[] = [];
    const spy = vi.spyOn(env.JOBS, 'sendBatch');
    const sent: unknown[] = [];
    spy.mockImplementation(async (messages) => {
      const batch = [...messages];
      if (batch.length > QUEUE_BATCH_LIMIT) throw new Error(`sendBatch of ${batch.length} messages`);
      for (const m of batch) {
        const body = m.body as CanaryNoticeJob | MissedCheckinsEvent;
        if (body.type === 'missed_checkins') sent.push(body);
        else if (body.kind !== 'missed') warnings.push(body);
      }
      return undefined as unknown as QueueSendBatchResponse;
    });
    try {
      await advanceCanary(servicesAt(deadline - grace), view.id, 'alarm'); // the reminder, on time — but never delivered
      const t1 = deadline + 100 * intervalMs; // the timer was down for 100 intervals: misses 1…101 are due
      await advanceCanary(servicesAt(t1), view.id, 'alarm'); // late: re-warned, nothing sent yet
      const rewarn = warnings.find((w) => w.kind === 'late_rewarn')!;
      await clockOf(env, view.id).warningDelivered(view.id, rewarn.transition_id, t1, 'email', t1); // it reaches the owner at once
      expect(sent).toHaveLength(0);
      await advanceCanary(servicesAt(t1 + grace), view.id, 'alarm');
      expect(sent).toHaveLength(101);
    } finally {
      spy.mockRestore();
    }
  });
});

/** A fresh world for a regression of the model: each step is checked against the model as the property does. */
async function regressionWorld() {
  await resetDb();
  const world = new World(Date.now() + REAL_CLOCK_MARGIN);
  const queue = spyOnQueue(world);
  const check = async (s: Step) => {
    await step(world, s);
    expect(world.model.violations, `after ${JSON.stringify(s)}`).toEqual([]);
    await checkRecorded(world);
  };
  return { world, queue, check };
}

describe('a catch-up of more than 500 misses (found with vacation pauses)', () => {
  // Regression (seed 2136601262): one run records at most 500 misses and asks for the next run at once
  // (docs/decisions/canary-engine.md, "A long backlog is recorded in bounded runs"); the model expected a
  // single run to record them all. A pause lets the clock jump weeks for the other canaries, so a
  // reconciler run found 505 misses of a 5-minute canary due: it records 500, the next run the last 5.
  it('the reconciler records 500 of 505, arms the next run at once, and that run records the rest', async () => {
    const { world, queue, check } = await regressionWorld();
    try {
      await create(world, 300);
      await check({ t: 'create', ratio: 0.5 });
      const [, busy] = world.model.live();
      await check({ t: 'pause', c: 0, permille: 24 }); // the first canary away for 1.44 days
      await check({ t: 'landOn', c: 0, at: 'graceStart', k: 1, off: 0 }); // its grace start after the pause
      await check({ t: 'outage', intervals: 90 });
      await check({ t: 'reconcile' });
      const missed = async () =>
        (await transitionsOf(busy!.id)).filter((t) => t.kind === 'missed' && t.cycle_deadline === world.model.deadlineOf(busy!)).map((t) => t.misses);
      expect(world.model.missesAt(busy!, world.now)).toBe(505);
      expect((await missed()).length).toBe(500);
      expect(world.timerDue.get(busy!.id), 'a backlog: the next run at once').toBe(world.now + 1);
      await check({ t: 'landOn', c: 1, at: 'timer', k: 1, off: 0 });
      await check({ t: 'run', c: 1, by: 'alarm', twice: false });
      expect((await missed()).sort((a, b) => a - b)).toEqual(Array.from({ length: 505 }, (_, i) => i + 1));
    } finally {
      queue.mockRestore();
    }
  });
});

describe('a pause-ending notice whose send failed (found with a failed queue send)', () => {
  // Regression (seed 871674814): the notice was recorded in the pause's last day, its send failed, and the
  // next wake — the deadline after the pause — sent "your pause ends soon" once the pause had ended.
  async function pausedThenSendFails() {
    const { world, queue, check } = await regressionWorld();
    await create(world, 300);
    await check({ t: 'pause', c: 0, permille: 17, checkInFirst: false }); // away for a day and 29 minutes
    await check({ t: 'landOn', c: 0, at: 'timer', k: 1, off: 0 }); // the pause's last day begins
    await check({ t: 'sendFails', c: 0 }); // the notice is recorded, its send fails
    return { world, queue, check, c: world.model.live()[0]! };
  }

  it('is not sent once the pause has ended', async () => {
    const { queue, check } = await pausedThenSendFails();
    try {
      const told = stats.pauseNotices;
      await check({ t: 'boundaryCycle', c: 0, remind: 'none', miss: 'D' }); // the next wake is the deadline after the pause
      expect(stats.pauseNotices, 'no pause notice after the pause').toBe(told);
      await check({ t: 'create', ratio: 0.5 });
    } finally {
      queue.mockRestore();
    }
  });

  it('is tried again a minute later, within the pause: the failed wake re-arms the timer for then', async () => {
    const { world, queue, c } = await pausedThenSendFails();
    try {
      // The alarm's own run fails the same way, arming its timer (D1's copy is what the reconciler reads when
      // the runtime's retries of the alarm fail too).
      world.failSend = true;
      const failed = await advanceCanary(world.ctx(), c.id, 'alarm', { armsTimer: true }).then(
        () => null,
        (err: unknown) => String(err),
      );
      expect(failed).toMatch(/queue unavailable/);
      world.failSend = false;
      const due = await timerDueOf(c.id);
      expect(due, 'the timer is armed a minute after the failed send, inside the pause').toBe(world.now + 60_000);
      const told = stats.pauseNotices;
      world.now = due!;
      await runTimer(world, c, 'alarm');
      expect(stats.pauseNotices, 'the notice goes out on that wake').toBe(told + 1);
      expect(world.model.violations).toEqual([]);
    } finally {
      world.failSend = false;
      queue.mockRestore();
    }
  });
});

describe('canary engine against a reference model', () => {
  it('safety: no event early, none twice, none for an ended cycle or a deleted canary; timer runs catch up', async () => {
    await fc.assert(
      // The first canary: an interval, or (a third of the runs) a calendar schedule.
      fc.asyncProperty(
        fc.oneof({ arbitrary: intervalArb, weight: 2 }, { arbitrary: scheduleArb, weight: 1 }),
        fc.array(stepArb(outagesOn), { minLength: 1, maxLength: 25, size: 'max' }),
        async (first, steps) => {
          await resetDb();
          const world = new World(Date.now() + REAL_CLOCK_MARGIN);
          const queue = spyOnQueue(world);
          stats.safetyRuns++;
          try {
            await (typeof first === 'number' ? create(world, first) : create(world, 86_400, first));
            for (const s of steps) {
              stats.steps++;
              await step(world, s);
              expect(world.model.violations, `after ${JSON.stringify(s)} at ${world.model.rel(world.now)}`).toEqual([]);
              await checkRecorded(world);
            }
          } finally {
            queue.mockRestore();
          }
        },
      ),
      { numRuns: runs(60), ...replay('safety') },
    );
  }, 120_000);

  it('liveness: with the timer waking when the engine asks (as the Durable Object does), every miss is emitted at its due time', async () => {
    await fc.assert(
      fc.asyncProperty(
        // An interval canary, or (a third of the runs) a calendar one, whose misses fall on scheduled times.
        fc.oneof({ arbitrary: intervalArb, weight: 2 }, { arbitrary: scheduleArb, weight: 1 }),
        // A second canary (within a factor 2 of the first's interval), or none.
        fc.constantFrom<0 | 0.5 | 1 | 2>(0, 0.5, 1, 2),
        // Check-ins, as offsets in thousandths of the first interval after the previous one.
        fc.array(fc.integer({ min: 1, max: 4000 }), { maxLength: 4 }),
        fc.integer({ min: 1, max: 5 }),
        async (first, secondRatio, checkInGaps, horizonIntervals) => {
          await resetDb();
          const world = new World(Date.now() + REAL_CLOCK_MARGIN);
          const { model } = world;
          const queue = spyOnQueue(world);
          stats.livenessRuns++;
          try {
            await (typeof first === 'number' ? create(world, first) : create(world, 86_400, first));
            const firstInterval = world.refIntervalMs / 1000;
            if (secondRatio) await create(world, Math.min(34_560_000, Math.max(300, Math.round(firstInterval * secondRatio))));
            const canaries = model.live();
            const ref = world.refIntervalMs;
            const end = world.now + ref * (horizonIntervals + 1);
            const checkIns: number[] = [];
            let at = world.now;
            for (const g of checkInGaps) {
              at += Math.round((ref * g) / 1000);
              checkIns.push(at);
            }
            // Cycle starts: creation, then each check-in that happens before the end.
            const starts = [world.now, ...checkIns.filter((t) => t <= end)];

            for (;;) {
              const wakes = canaries.map((c) => world.timerDue.get(c.id)!);
              const next = Math.min(...wakes, checkIns[0] ?? Infinity);
              if (next > end) break;
              world.now = next;
              if (checkIns[0] === next) {
                checkIns.shift();
                for (const c of canaries) model.checkIn(c, world.now);
                await checkInAll(world.ctx(), user.id, 'web');
                // check-in.ts re-arms a timer that would wake after the new cycle's grace starts.
                for (const c of canaries) {
                  if (world.timerDue.get(c.id)! > model.deadlineOf(c) - c.graceMs) await runTimer(world, c, 'alarm');
                }
              }
              for (const c of canaries) {
                if (world.timerDue.get(c.id) !== world.now) continue;
                await runTimer(world, c, 'alarm');
                // The owner's channels work: every warning reaches them the moment it is sent.
                await deliver(world, c, 'all');
              }
              expect(model.violations).toEqual([]);
            }

            // Everything due by the end was emitted exactly at its due time, in every cycle — a cycle
            // ended by a check-in only up to that check-in (a miss due at the check-in instant is not).
            for (const c of canaries) {
              for (let i = 0; i < starts.length; i++) {
                const deadline = c.calendar ? c.calendar.after(starts[i]! + c.graceMs) : starts[i]! + c.intervalMs;
                const endedAt = starts[i + 1] ?? Infinity;
                const cy = model.cycle(c, deadline);
                for (let k = 1; ; k++) {
                  const due = model.dueOf(c, deadline, k);
                  if (due >= endedAt || due > end) break;
                  stats.livenessEmitted++;
                  expect(
                    cy.emitted.get(k),
                    `misses ${k} of cycle ${model.rel(deadline)} (interval ${c.intervalMs / 1000}s) emitted at its due time ${model.rel(due)}`,
                  ).toBe(due);
                }
                expect(cy.rewarned, `cycle ${model.rel(deadline)} was on time and warned`).toBe(false);
              }
            }
          } finally {
            queue.mockRestore();
          }
        },
      ),
      { numRuns: runs(40), ...replay('liveness') },
    );
  }, 120_000);
});
