import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ZCreateMessageInput } from '../src/contracts/messages';
import { type CanaryClockState, canaryDeadline, missDueAt } from '../src/contracts/canary-health';
import { maxGraceSeconds, PAUSE_MAX_DAYS, type TCanarySchedule, WEEKDAYS } from '../src/contracts/canary-schedule';
import { pauseCanary, resumeCanary } from '../src/domains/canary/update-canary';
import type { CheckInProjection, MissedCheckinsEvent } from '../src/contracts/jobs';
import { checkInAll } from '../src/domains/canary/check-in';
import { applyProjections } from '../src/domains/canary/projection-batch';
import { createCanary } from '../src/domains/canary/create-canary';
import { deleteAccount } from '../src/domains/account/delete-account';
import { setConsent } from '../src/wiring/set-consent';
import { createServiceContext } from '../src/wiring/service-context';
import { createMessage } from '../src/domains/messages/create-message';
import { deliverMessage } from '../src/domains/messages/delivery/deliver-message';
import { advanceMessage } from '../src/domains/messages/release/advance-message';
import { armOnMissedCheckins } from '../src/domains/messages/release/arm-on-missed-checkins';
import { signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';
import { captureQueues } from './helpers/messages';
import { checkInWithQueueDown } from './helpers/canary-clock';

/**
 * Model-based property test of the release engine: random sequences of clock jumps,
 * clock runs (alarm re-runs included), canary events (in order; repeated; and a previous cycle's miss arriving after a check-in),
 * check-ins and delivery jobs (duplicated), checked after every step against a reference model written
 * from docs/server-rules.md "Messages, rules and release" alone:
 *   - no early release: a message is released exactly when the model says, never before deliver_at;
 *   - no missed release: at the end (everything due has come) each message the model releases is released;
 *   - at most one delivery per (message, channel), under duplicated jobs;
 *   - withdrawing the sender's messages consent pauses everything: while paused no message arms or is
 *     released (clock runs do nothing, canary events are dropped; a check-in still disarms); restoring it
 *     resumes the normal rules from that moment (what came due meanwhile happens at the next run);
 *   - the recipient deleting their account (the erasure itself) cancels every message not released yet:
 *     none is released afterwards, whatever comes due, and nothing is delivered to the deleted user;
 *   - a check-in the canary's object accepted but D1 has not heard of (the PROJECTIONS queue down; the
 *     projection lost, or arriving late, twice and out of order) has the effect of a check-in at its time:
 *     D1 may show the message armed until then, but it is never released in that window;
 *   - the sender's canary has an interval or (a third of the runs) a calendar schedule, and may be paused for
 *     a vacation and resumed (docs/decisions/calendar-schedules.md): an event of a cycle a pause or resume
 *     replaced arms nothing, and a pause of a missed canary is refused. The model reads the canary's deadline
 *     and its misses' due times with the server's own pure functions (contracts/canary-health.ts
 *     `canaryDeadline`, `missDueAt`): date rules are the schedule tests' subject (canary-schedule.test.ts
 *     against an Intl oracle), and a second copy here would test nothing of the release engine.
 * The fake clock starts a day after the real one, so the real Durable Objects (armed with the real clock
 * by create and check-in) never find anything due while a run lasts.
 *
 * Replay a failure: VITE_FC_SEED=<seed> VITE_FC_PATH=<path> pnpm exec vitest run test/messages-model.test.ts
 */
const penv: Record<string, string | undefined> = (import.meta as { env?: Record<string, string | undefined> }).env ?? {};
const replay = penv.VITE_FC_SEED ? { seed: Number(penv.VITE_FC_SEED), path: penv.VITE_FC_PATH, endOnFailure: true } : {};
const RUNS = penv.VITE_FC_RUNS ? Number(penv.VITE_FC_RUNS) : 80;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const INTERVAL = DAY;

type RuleSpec = { trigger_type: 'missed_checkins'; n: number; w: number } | { trigger_type: 'fixed_date'; offsetHours: number; w: number };
interface MessageSpec {
  deliverOffsetHours: number;
  rules: RuleSpec[];
}
type Step =
  | { t: 'advance'; hours: number }
  | { t: 'run'; twice: boolean }
  | { t: 'emit' }
  | { t: 'redeliver'; pick: number }
  | { t: 'checkIn' }
  /** A token check-in the canary's object accepts while the PROJECTIONS queue is down: D1 does not hear of it. */
  | { t: 'checkInLagging'; late: boolean }
  /** A lost projection arrives after all, possibly twice and out of order (late: true above). */
  | { t: 'projectLate'; pick: number; twice: boolean }
  | { t: 'deliver'; duplicate: boolean }
  | { t: 'withdraw' }
  | { t: 'restore' }
  | { t: 'recipientLeaves' }
  /**
   * The clock jumps to the canary's next miss (of a calendar canary, days or weeks away), `hours` past it, and
   * (`emit`) the canary engine emits it there.
   */
  | { t: 'advanceToMiss'; hours: number; emit: boolean }
  /** A vacation pause of `hours` (refused while missed), ended early after `backAfterHours` if given. */
  | { t: 'pause'; hours: number; backAfterHours?: number }
  | { t: 'resume' };

const ruleArb: fc.Arbitrary<RuleSpec> = fc.oneof(
  fc.record({ trigger_type: fc.constant('missed_checkins' as const), n: fc.integer({ min: 1, max: 3 }), w: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ trigger_type: fc.constant('fixed_date' as const), offsetHours: fc.integer({ min: 0, max: 120 }), w: fc.integer({ min: 0, max: 2 }) }),
);
const messageArb: fc.Arbitrary<MessageSpec> = fc.record({
  deliverOffsetHours: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 96 })),
  rules: fc.array(ruleArb, { maxLength: 2 }),
});
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('run' as const), twice: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('emit' as const) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('redeliver' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('checkIn' as const) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('checkInLagging' as const), late: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('projectLate' as const), pick: fc.nat(), twice: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('deliver' as const), duplicate: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('withdraw' as const) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('restore' as const) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('recipientLeaves' as const) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('advanceToMiss' as const),
      hours: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3 })),
      emit: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('pause' as const),
      hours: fc.oneof(fc.integer({ min: 1, max: 72 }), fc.integer({ min: 1, max: PAUSE_MAX_DAYS * 24 - 1 })),
      backAfterHours: fc.option(fc.integer({ min: 0, max: 48 }), { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('resume' as const) }) },
);

/** A calendar schedule whose deadlines come within a run's steps: mostly weekly, sometimes monthly. */
const scheduleArb: fc.Arbitrary<TCanarySchedule> = fc
  .record({
    rule: fc.oneof(
      {
        weight: 3,
        arbitrary: fc.record({ kind: fc.constant('weekly' as const), days: fc.uniqueArray(fc.constantFrom(...WEEKDAYS), { minLength: 1, maxLength: 7 }) }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('monthly_day' as const), day: fc.constantFrom(1, 15, 31) }) },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('monthly_weekday' as const),
          week: fc.constantFrom('first' as const, 'last' as const),
          weekday: fc.constantFrom(...WEEKDAYS),
        }),
      },
    ),
    time: fc.constantFrom('00:00', '02:30', '10:00', '23:59'),
    time_zone: fc.constantFrom('Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Apia', 'UTC'),
    grace: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(
    ({ rule, time, time_zone, grace }) =>
      ({ ...rule, time, time_zone, grace_seconds: 60 + Math.floor(grace * (maxGraceSeconds(rule) - 60)) }) as TCanarySchedule,
  );
/** The sender's canary: every day (the SPEC's interval), or a calendar schedule. */
const canaryArb = fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: scheduleArb });

/** The reference: docs/server-rules.md "Messages, rules and release", nothing else. */
interface ModelMessage {
  deliverAt: number;
  rules: { type: 'missed_checkins' | 'fixed_date'; n: number; at: number; w: number; spent: boolean }[];
  /** cancelled: its recipient deleted their account before it was released. */
  status: 'scheduled' | 'armed' | 'released' | 'cancelled';
  cancelDeadline: number | null;
  releasedAt: number | null;
}

function modelArm(m: ModelMessage, ruleIndex: number, at: number) {
  const rule = m.rules[ruleIndex]!;
  if (rule.type === 'fixed_date') rule.spent = true;
  m.status = 'armed';
  m.cancelDeadline = Math.max(at, m.deliverAt) + rule.w * DAY;
}

/** What time alone does by `now` (a clock run); nothing while the sender's messages consent is withdrawn. */
function modelRun(m: ModelMessage, now: number, paused: boolean) {
  if (paused) return;
  for (;;) {
    if (m.status === 'armed' && m.cancelDeadline! <= now) {
      m.status = 'released';
      m.releasedAt = now;
      m.cancelDeadline = null;
    } else if (m.status === 'scheduled' && !m.rules.length && m.deliverAt <= now) {
      m.status = 'released';
      m.releasedAt = now;
    } else if (m.status === 'scheduled') {
      const due = m.rules
        .map((r, i) => ({ r, i }))
        .filter(({ r }) => r.type === 'fixed_date' && !r.spent && r.at <= now)
        .sort((a, b) => a.r.at - b.r.at)[0];
      if (!due) return;
      modelArm(m, due.i, now);
    } else return;
  }
}

async function userRow(id: string): Promise<User> {
  const [u] = await servicesAt(Date.now()).db.select().from(schema.users).where(eq(schema.users.id, id));
  return u!;
}

/** What the generated runs exercised (printed at the end, so a weak generator shows). */
const stats = { runs: 0, calendarRuns: 0, emitted: 0, calendarEmitted: 0, pauses: 0, pausesRefused: 0, resumes: 0, armedByEvent: 0 };
afterAll(() => console.info('messages model coverage', JSON.stringify(stats)));

describe('release engine model', () => {
  it('releases exactly when the rules say, never early, never twice', async () => {
    const sender = await signedInUser();
    let recipient = await signedInUser();
    const senderUser = await userRow(sender.id);

    await fc.assert(
      fc.asyncProperty(
        canaryArb,
        fc.array(messageArb, { minLength: 1, maxLength: 3 }),
        fc.array(stepArb, { minLength: 5, maxLength: 30 }),
        async (schedule, specs, steps) => {
          // Each run starts from a clean sender: no messages, one canary.
          await env.DB.prepare('DELETE FROM messages WHERE sender_id = ?').bind(sender.id).run();
          await env.DB.prepare('DELETE FROM canaries WHERE user_id = ?').bind(sender.id).run();
          await env.DB.prepare('DELETE FROM user_consents WHERE user_id = ?').bind(sender.id).run();
          // A run after one whose recipient left Afterword writes to a new recipient.
          if (!(await env.DB.prepare('SELECT 1 FROM users WHERE id = ?').bind(recipient.id).first())) recipient = await signedInUser();
          let paused = false;
          let pausedSince: number | null = null;
          /** When the recipient's account was erased; null while they are here. */
          let leftAt: number | null = null;
          const t0 = Date.now() + DAY;
          let now = t0;
          const at = () => servicesAt(now);
          const canary = await createCanary(at(), senderUser, { interval_seconds: INTERVAL / 1000, name: 'model', schedule });
          stats.runs++;
          if (schedule) stats.calendarRuns++;
          let lastCheckIn = t0;
          let pausedUntil: number | null = null;
          let emittedInCycle = 0;
          /** The canary as the server's deadline function reads it. */
          const clock = (): CanaryClockState => ({
            lastCheckInMs: lastCheckIn,
            intervalSeconds: canary.interval_seconds,
            schedule: canary.schedule,
            pausedUntilMs: pausedUntil,
          });
          const deadline = () => canaryDeadline(clock());
          /** When miss `k` of the current cycle is due. */
          const dueOf = (k: number) => missDueAt(clock(), deadline(), k);
          expect(Date.parse(canary.deadline), 'the model reads the new canary’s deadline as the server does').toBe(deadline());
          /** Messages the model disarmed by a lagging check-in, with the cancel deadline D1 may still show. */
          const lagging = new Map<number, number>();
          const lateProjections: CheckInProjection[] = [];
          const delivered: MissedCheckinsEvent[] = [];
          const deliverJobs: string[] = [];
          const run = async <T>(fn: () => Promise<T>) => {
            const { result, jobs } = await captureQueues(fn);
            for (const j of jobs) if (j.body.type === 'deliver') deliverJobs.push(j.body.delivery_id as string);
            return result;
          };

          const model: ModelMessage[] = [];
          const ids: string[] = [];
          for (const spec of specs) {
            const deliverAt = t0 + spec.deliverOffsetHours * HOUR;
            const rules = spec.rules.map((r) =>
              r.trigger_type === 'missed_checkins'
                ? { trigger_type: r.trigger_type, trigger_value: r.n, expire_window: r.w }
                : { trigger_type: r.trigger_type, trigger_value: new Date(t0 + r.offsetHours * HOUR).toISOString(), expire_window: r.w },
            );
            const input = ZCreateMessageInput.parse({
              recipient_user_id: recipient.id,
              content: 'model',
              delivery_method: 'email',
              deliver_at: new Date(deliverAt).toISOString(),
              rules,
              consent: true,
            });
            const view = await run(() => createMessage(at(), senderUser, input));
            ids.push(view.id);
            model.push({
              deliverAt,
              rules: spec.rules.map((r) =>
                r.trigger_type === 'missed_checkins'
                  ? { type: r.trigger_type, n: r.n, at: 0, w: r.w, spent: false }
                  : { type: r.trigger_type, n: 0, at: t0 + r.offsetHours * HOUR, w: r.w, spent: false },
              ),
              status: 'scheduled',
              cancelDeadline: null,
              releasedAt: null,
            });
          }

          const runClocks = async (twice: boolean) => {
            for (let i = 0; i < ids.length; i++) {
              await run(() => advanceMessage(at(), ids[i]!, 'direct'));
              if (twice) await run(() => advanceMessage(at(), ids[i]!, 'direct'));
              modelRun(model[i]!, now, paused);
            }
          };
          const applyEvent = async (event: MissedCheckinsEvent) => {
            await run(() => armOnMissedCheckins(at(), event));
            const current = deadline() === Date.parse(event.deadline);
            for (const m of model) {
              if (paused || !current || m.status !== 'scheduled') continue;
              const i = m.rules.findIndex((r) => r.type === 'missed_checkins' && r.n <= event.misses);
              if (i >= 0) {
                modelArm(m, i, Date.parse(event.fired_at));
                stats.armedByEvent++;
              }
            }
          };

          /** The canary engine's next miss of the current cycle, if it has come. */
          const emitNext = async () => {
            const misses = emittedInCycle + 1;
            const dueAt = dueOf(misses);
            if (dueAt > now) return;
            stats.emitted++;
            if (schedule) stats.calendarEmitted++;
            const event: MissedCheckinsEvent = {
              type: 'missed_checkins',
              event_id: crypto.randomUUID(),
              user_id: sender.id,
              canary_id: canary.id,
              misses,
              deadline: new Date(deadline()).toISOString(),
              fired_at: new Date(dueAt).toISOString(),
            };
            emittedInCycle = misses;
            delivered.push(event);
            await applyEvent(event);
          };
          /** The sender ends the pause now: refused unless paused; the deadline is counted from now. */
          const resumeNow = async () => {
            const answer = run(() => resumeCanary(at(), sender.id, canary.id));
            if (pausedUntil === null || pausedUntil <= now) {
              await expect(answer, 'only a paused canary resumes').rejects.toThrow(/not paused/);
              return;
            }
            pausedUntil = now;
            emittedInCycle = 0;
            stats.resumes++;
            expect(Date.parse((await answer).deadline), 'the deadline after the resume').toBe(deadline());
          };

          const check = async (label: string) => {
            for (let i = 0; i < ids.length; i++) {
              const row = (await env.DB.prepare('SELECT status, cancel_deadline, released_at, deliver_at FROM messages WHERE id = ?')
                .bind(ids[i])
                .first<Record<string, number | string | null>>())!;
              const m = model[i]!;
              const status = row.status === 'scheduled' || row.status === 'armed' || row.status === 'cancelled' ? row.status : 'released';
              if (row.status !== 'armed' || m.status !== 'scheduled') lagging.delete(i);
              if (lagging.has(i)) {
                // Disarmed by a check-in D1 has not heard of yet: still armed there, as before, and never released.
                expect({ label, i, cancelDeadline: row.cancel_deadline }).toEqual({ label, i, cancelDeadline: lagging.get(i) });
                continue;
              }
              expect({ label, i, status, cancelDeadline: row.cancel_deadline ?? null }).toEqual({
                label,
                i,
                status: m.status,
                cancelDeadline: m.status === 'armed' ? m.cancelDeadline : null,
              });
              if (m.status === 'released') {
                expect(row.released_at as number).toBeGreaterThanOrEqual(m.deliverAt);
              }
              // Paused: never released while the consent is withdrawn (released_at predates the withdrawal).
              if (paused && row.released_at != null) expect(row.released_at as number).toBeLessThanOrEqual(pausedSince!);
              const { results } = await env.DB.prepare("SELECT count(*) AS n FROM delivery_log WHERE message_id = ? AND channel = 'email' AND success = 1")
                .bind(ids[i])
                .all<{ n: number }>();
              expect(results[0]!.n).toBeLessThanOrEqual(1);
              if (leftAt != null) {
                // Nothing reaches a deleted user: no delivery succeeds after the erasure.
                const after = await env.DB.prepare('SELECT count(*) AS n FROM delivery_log WHERE message_id = ? AND success = 1 AND created_at > ?')
                  .bind(ids[i], leftAt)
                  .first<{ n: number }>();
                expect({ label, i, deliveredAfterLeaving: after!.n }).toEqual({ label, i, deliveredAfterLeaving: 0 });
              }
            }
          };

          for (const [k, step] of steps.entries()) {
            switch (step.t) {
              case 'advance':
                now += step.hours * HOUR;
                break;
              case 'run':
                await runClocks(step.twice);
                break;
              case 'emit':
                await emitNext();
                break;
              case 'redeliver':
                if (delivered.length) await applyEvent(delivered[step.pick % delivered.length]!);
                break;
              case 'checkIn':
              case 'checkInLagging': {
                // A miss of the ending cycle that was still in the queue: it may arrive later (stale).
                const nextDue = dueOf(emittedInCycle + 1);
                if (nextDue <= now) {
                  delivered.push({
                    type: 'missed_checkins',
                    event_id: crypto.randomUUID(),
                    user_id: sender.id,
                    canary_id: canary.id,
                    misses: emittedInCycle + 1,
                    deadline: new Date(deadline()).toISOString(),
                    fired_at: new Date(nextDue).toISOString(),
                  });
                }
                if (step.t === 'checkIn') await run(() => checkInAll(at(), sender.id, 'web'));
                else {
                  const entry = await checkInWithQueueDown(canary.id, now);
                  if (step.late) lateProjections.push({ type: 'canary_check_in', canary_id: canary.id, ...entry });
                }
                lastCheckIn = now;
                emittedInCycle = 0;
                for (const [i, m] of model.entries()) {
                  if (m.status === 'armed' && m.cancelDeadline! > now) {
                    // D1 may still show it armed until the check-in reaches it (a settle or the late projection).
                    if (step.t === 'checkInLagging') lagging.set(i, m.cancelDeadline!);
                    m.status = 'scheduled';
                    m.cancelDeadline = null;
                  }
                }
                // Time moves on by a millisecond: an arming after a check-in never shares its millisecond. The
                // two come from different clocks (the canary's object, the release engine), so their order
                // within one millisecond is not known; the engine counts a check-in at the arming's very
                // millisecond as inside the window, the safe side (docs/decisions/canary-engine.md).
                now += 1;
                break;
              }
              case 'advanceToMiss':
                now = Math.max(now, dueOf(emittedInCycle + 1) + step.hours * HOUR);
                if (step.emit) await emitNext();
                break;
              case 'pause': {
                const until = now + step.hours * HOUR;
                const answer = run(() => pauseCanary(at(), sender.id, canary.id, { until: new Date(until).toISOString() }));
                if (now >= deadline()) {
                  // Missed: its misses belong to this deadline, which a pause would move (docs/decisions/calendar-schedules.md).
                  await expect(answer, 'a missed canary cannot be paused').rejects.toThrow(/check in first/);
                  stats.pausesRefused++;
                  break;
                }
                const before = deadline();
                pausedUntil = until;
                stats.pauses++;
                expect(Date.parse((await answer).deadline), 'the deadline after the pause').toBe(deadline());
                // A new cycle: an event of the one before (none was emitted: it was not missed) arms nothing now.
                if (deadline() !== before) emittedInCycle = 0;
                // Back early: a resume drawn on its own mostly finds the pause over, or none (as in the canary model).
                if (step.backAfterHours !== undefined && now + step.backAfterHours * HOUR < until) {
                  now += step.backAfterHours * HOUR;
                  await resumeNow();
                }
                break;
              }
              case 'resume':
                await resumeNow();
                break;
              case 'projectLate': {
                if (!lateProjections.length) break;
                const picked = lateProjections[step.pick % lateProjections.length]!;
                await run(() => applyProjections(createServiceContext(env), step.twice ? [picked, lateProjections[0]!, picked] : [picked]));
                break;
              }
              case 'withdraw':
                await run(() => setConsent(at(), sender.id, 'messages', false));
                if (!paused) pausedSince = now;
                paused = true;
                break;
              case 'restore':
                await run(() => setConsent(at(), sender.id, 'messages', true));
                paused = false;
                pausedSince = null;
                break;
              case 'recipientLeaves':
                if (leftAt != null) break;
                await run(() => deleteAccount(at(), recipient.id));
                leftAt = now;
                for (const m of model) {
                  if (m.status === 'scheduled' || m.status === 'armed') {
                    m.status = 'cancelled';
                    m.cancelDeadline = null;
                  }
                }
                break;
              case 'deliver': {
                const jobs = deliverJobs.splice(0);
                for (const id of jobs) {
                  await run(() => deliverMessage(at(), id));
                  if (step.duplicate) await run(() => deliverMessage(at(), id));
                }
                break;
              }
            }
            await check(`step ${k} ${step.t}`);
          }

          // Liveness: jump past every date and window, run every clock and every job.
          now += 200 * DAY;
          await runClocks(true);
          for (const id of deliverJobs.splice(0)) {
            await run(() => deliverMessage(at(), id));
            await run(() => deliverMessage(at(), id));
          }
          await check('end');
          // Still paused at the end: nothing was released; restoring resumes, and everything due now goes.
          if (paused) {
            await run(() => setConsent(at(), sender.id, 'messages', true));
            paused = false;
            pausedSince = null;
            now += DAY;
            await runClocks(true);
            for (const id of deliverJobs.splice(0)) {
              await run(() => deliverMessage(at(), id));
              await run(() => deliverMessage(at(), id));
            }
            await check('end, restored');
          }
          for (let i = 0; i < ids.length; i++) {
            // The recipient's mailbox went with their account: nothing of it is left, and nothing came after.
            const released = model[i]!.status === 'released' && leftAt == null;
            const { results } = await env.DB.prepare(
              'SELECT count(*) AS n FROM outbox_messages o JOIN deliveries d ON o.idempotency_key = ? || d.id WHERE d.message_id = ?',
            )
              .bind('delivery:', ids[i])
              .all<{ n: number }>();
            expect({ i, outbox: results[0]!.n }).toEqual({ i, outbox: released ? 1 : 0 });
          }
        },
      ),
      { numRuns: RUNS, ...replay },
    );
  }, 600_000);
});
