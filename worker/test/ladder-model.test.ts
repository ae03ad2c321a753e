import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZCreateMessageInput } from '../src/contracts/messages';
import { ZVaultAssignInput } from '../src/contracts/vault';
import { checkInAll } from '../src/domains/canary/check-in';
import { createCanary } from '../src/domains/canary/create-canary';
import type { MissedCheckinsEvent } from '../src/contracts/jobs';
import { reportDeath } from '../src/domains/developer/death-verification';
import { advanceLadder, HALFWAY_LATE_MS } from '../src/domains/guardian/advance-ladder';
import { answerAsGuardian } from '../src/domains/guardian/answer-guardian';
import { askGuardians } from '../src/domains/guardian/ask-guardians';
import { completeDeathConfirmation } from '../src/domains/guardian/complete-confirmation';
import { revokeGuardian } from '../src/domains/guardian/manage-guardians';
import { createMessage } from '../src/domains/messages/create-message';
import { advanceMessage } from '../src/domains/messages/release/advance-message';
import { assignVaultItem } from '../src/domains/vault/assign-item';
import type { KeyPrincipal } from '../src/middleware/context';
import { checkInWithQueueDown } from './helpers/canary-clock';
import { signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';
import { guardianOf } from './helpers/guardian';
import { captureQueues } from './helpers/messages';
import { envelopeFor, withKeys } from './helpers/vault';

/**
 * Model-based property test of the guardian ladder, extending the release engine's:
 * random sequences of clock jumps, missed-check-in events (and their redelivery), guardian reports,
 * executor-key reports (live and sandbox), revocations, holds, refuting check-ins, clock runs (alarms
 * re-run) and `death_confirmed` jobs (redelivered), checked after every step against a reference model
 * written from docs/decisions/guardian-ladder.md alone. The invariant: a message with a
 * delay-after-death rule is released only if a death was reported by a quorum of distinct active
 * guardians (or an authorised live key), the veto window then passed without a check-in, no hold was in
 * force — and it is released, and the death confirmed, exactly once.
 * The fake clock runs a day ahead of the real one, so the real Durable Objects never find anything due.
 *
 * Replay a failure: VITE_FC_SEED=<seed> VITE_FC_PATH=<path> pnpm exec vitest run test/ladder-model.test.ts
 */
const penv: Record<string, string | undefined> = (import.meta as { env?: Record<string, string | undefined> }).env ?? {};
const replay = penv.VITE_FC_SEED ? { seed: Number(penv.VITE_FC_SEED), path: penv.VITE_FC_PATH, endOnFailure: true } : {};
const RUNS = penv.VITE_FC_RUNS ? Number(penv.VITE_FC_RUNS) : 15;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const INTERVAL = DAY;
const WINDOW_HOURS = 24;
const WINDOW = WINDOW_HOURS * HOUR;

type Step =
  | { t: 'advance'; hours: number }
  | { t: 'ask' }
  | { t: 'redeliverAsk' }
  | { t: 'report'; g: number }
  | { t: 'keyReport'; sandbox: boolean }
  | { t: 'revoke'; g: number }
  | { t: 'hold'; g: number; days: number }
  | { t: 'checkIn' }
  | { t: 'objectCheckIn' }
  | { t: 'run'; twice: boolean }
  | { t: 'jobs'; redeliver: boolean };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ t: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('ask' as const) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('redeliverAsk' as const) }) },
  { weight: 5, arbitrary: fc.record({ t: fc.constant('report' as const), g: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('keyReport' as const), sandbox: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('revoke' as const), g: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('hold' as const), g: fc.integer({ min: 0, max: 2 }), days: fc.integer({ min: 1, max: 5 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('checkIn' as const) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('objectCheckIn' as const) }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('run' as const), twice: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('jobs' as const), redeliver: fc.boolean() }) },
);

/** The reference: docs/decisions/guardian-ladder.md, nothing else. */
interface ReportModel {
  opened: number;
  votes: Set<number>;
  key: boolean;
  windowOpened: number | null;
  windowEnds: number | null;
  halfway: number | null;
  halfwaySent: boolean;
}

interface Model {
  quorum: number;
  lastCheckIn: number;
  active: boolean[];
  report: ReportModel | null;
  /** A sandbox key's report: it confirms nothing, but its window's end is a moment the ladder settles. */
  sandbox: ReportModel | null;
  holds: { until: number; created: number }[];
  confirmedAt: number | null;
  released: boolean;
  /**
   * A token check-in only the canary's object knows (its copy for D1 lost with the isolate that answered):
   * D1 hears of it when someone settles — before a report is taken, before a confirmation. Then it does
   * what any check-in does at its own time: refutes a report opened before it, ends holds made before it.
   */
  owed: number | null;
}

/** D1 hears of the check-in only the object held (a settle): what it does, judged by its own time. */
function settle(m: Model) {
  const at = m.owed;
  if (at == null) return;
  m.owed = null;
  m.lastCheckIn = Math.max(m.lastCheckIn, at);
  if (m.report && m.report.opened <= at) m.report = null;
  if (m.sandbox && m.sandbox.opened <= at) m.sandbox = null;
  m.holds = m.holds.filter((h) => h.created > at);
}

const holdMax = (m: Model, now: number) => Math.max(0, ...m.holds.filter((h) => h.until > now).map((h) => h.until));

/** What time alone does by `now` (a clock run): each open window's halfway reminder, then its end. */
function modelRun(m: Model, now: number) {
  for (;;) {
    const open = [m.report, m.sandbox].filter((r): r is ReportModel => r?.windowOpened != null);
    if (!open.length) return;
    const hold = holdMax(m, now);
    const due = open.filter((r) => r.halfwaySent && r.windowEnds! <= now && hold <= now);
    // Before any window ends, D1 hears of every check-in the objects hold.
    if (due.length && m.owed != null) {
      settle(m);
      continue;
    }
    let moved = false;
    for (const r of open) {
      if (!r.halfwaySent && r.halfway! <= now) {
        r.halfwaySent = true;
        if (now > r.halfway! + HALFWAY_LATE_MS) r.windowEnds = Math.max(r.windowEnds!, now + Math.floor((r.windowEnds! - r.windowOpened!) / 2));
        moved = true;
      } else if (due.includes(r)) {
        if (r === m.report) {
          m.confirmedAt = now;
          m.report = null;
        } else m.sandbox = null;
        moved = true;
      }
    }
    if (!moved) return;
  }
}

const newReport = (now: number): ReportModel => ({
  opened: now,
  votes: new Set(),
  key: false,
  windowOpened: null,
  windowEnds: null,
  halfway: null,
  halfwaySent: false,
});

function openWindow(r: ReportModel, now: number) {
  r.windowOpened = now;
  r.windowEnds = now + WINDOW;
  r.halfway = now + WINDOW / 2;
}

async function userRow(id: string): Promise<User> {
  const [u] = await servicesAt(Date.now()).db.select().from(schema.users).where(eq(schema.users.id, id));
  return u!;
}

describe('guardian ladder model', () => {
  it('releases death-triggered messages only after a quorum (or a key), an unrefuted window and no hold — exactly once', async () => {
    const owner = await signedInUser();
    const recipient = await signedInUser();
    const guardians = await Promise.all([0, 1, 2].map(() => signedInUser()));
    const gids: string[] = [];
    for (const g of guardians) gids.push(await guardianOf(owner, g));
    const guardianUsers = await Promise.all(guardians.map((g) => userRow(g.id)));
    await withKeys(recipient);

    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 }), fc.array(stepArb, { minLength: 15, maxLength: 40 }), async (quorum, steps) => {
        // Each run starts from a clean owner: three active guardians, no reports, one canary, one message.
        await env.DB.batch([
          env.DB.prepare('DELETE FROM death_reports WHERE owner_id = ?').bind(owner.id),
          env.DB.prepare('DELETE FROM guardian_holds WHERE owner_id = ?').bind(owner.id),
          env.DB.prepare('DELETE FROM ladder_transitions WHERE owner_id = ?').bind(owner.id),
          env.DB.prepare('DELETE FROM messages WHERE sender_id = ?').bind(owner.id),
          env.DB.prepare('DELETE FROM vault_assets WHERE owner_id = ?').bind(owner.id),
          env.DB.prepare('DELETE FROM canaries WHERE user_id = ?').bind(owner.id),
          env.DB.prepare('DELETE FROM memorials WHERE created_by = ?').bind(owner.id),
          env.DB.prepare('DELETE FROM memorial_wishes WHERE user_id = ?').bind(owner.id),
          // The owner asked for a memorial page at their death (domains/memorials/memorial-wish.ts).
          env.DB.prepare(
            "INSERT INTO memorial_wishes (user_id, memorial_id, name, epitaph, tags, created_at, updated_at) VALUES (?1, ?2, 'Model', '', '[]', 0, 0)",
          ).bind(owner.id, crypto.randomUUID()),
          env.DB.prepare('UPDATE users SET death_confirmed_at = NULL WHERE id = ?').bind(owner.id),
          env.DB.prepare("UPDATE guardians SET status = 'active', ended_at = NULL WHERE owner_id = ?").bind(owner.id),
          env.DB.prepare(
            'INSERT INTO guardian_settings (owner_id, quorum, veto_window_hours, ask_after_misses, updated_at) VALUES (?1, ?2, ?3, 1, 0) ON CONFLICT (owner_id) DO UPDATE SET quorum = ?2, veto_window_hours = ?3',
          ).bind(owner.id, quorum, WINDOW_HOURS),
        ]);
        const t0 = Date.now() + DAY;
        let now = t0;
        const at = () => servicesAt(now);
        const ownerUser = await userRow(owner.id);
        const canary = await createCanary(at(), ownerUser, { interval_seconds: INTERVAL / 1000, name: 'model' });
        const input = ZCreateMessageInput.parse({
          recipient_user_id: recipient.id,
          content: 'after',
          delivery_method: 'email',
          rules: [{ trigger_type: 'delay_after_death', trigger_value: 0 }],
          consent: true,
        });
        const message = (await captureQueues(() => createMessage(at(), ownerUser, input))).result;
        // And a vault file given on the death flag: the same engine, the same promise.
        const assetId = crypto.randomUUID();
        await env.DB.prepare(
          "INSERT INTO vault_assets (id, owner_id, r2_key, iv, envelope, name, size, consent_at, created_at) VALUES (?, ?, ?, 'AAAAAAAAAAAAAAAA', ?, 'model.bin', 64, 0, 0)",
        )
          .bind(assetId, owner.id, `vault/${assetId}`, envelopeFor(owner.id, recipient.id))
          .run();
        const vault = (
          await captureQueues(() =>
            assignVaultItem(at(), ownerUser, ZVaultAssignInput.parse({ asset_id: assetId, recipient_user_id: recipient.id, condition_type: 'death_flag' })),
          )
        ).result;
        const keyId = crypto.randomUUID();
        const key = (sandbox: boolean) => ({ user: ownerUser, via: 'key', keyId, scopes: ['webhook:death-verification'], sandbox }) as unknown as KeyPrincipal;

        const m: Model = {
          quorum,
          lastCheckIn: t0,
          active: [true, true, true],
          report: null,
          sandbox: null,
          holds: [],
          confirmedAt: null,
          released: false,
          owed: null,
        };
        const pendingJobs: string[] = [];
        const events: MissedCheckinsEvent[] = [];
        const run = async <T>(fn: () => Promise<T>) => {
          const { result, jobs } = await captureQueues(fn);
          for (const j of jobs) if (j.body.type === 'death_confirmed') pendingJobs.push(j.body.report_id as string);
          return result;
        };
        /** Runs `fn`; true if it was refused with an AppError (and what the model expected). */
        const refused = async (fn: () => Promise<unknown>) => {
          try {
            await run(fn);
            return false;
          } catch (err) {
            if ((err as { name?: string }).name !== 'AppError') throw err;
            return true;
          }
        };
        const runMessage = async () => {
          await run(() => advanceMessage(at(), message.id, 'direct'));
          await run(() => advanceMessage(at(), vault.message_id, 'direct'));
          if (m.confirmedAt != null) m.released = true;
        };

        const check = async (label: string) => {
          const u = await env.DB.prepare('SELECT death_confirmed_at FROM users WHERE id = ?').bind(owner.id).first<{ death_confirmed_at: number | null }>();
          expect({ label, confirmedAt: u!.death_confirmed_at }).toEqual({ label, confirmedAt: m.confirmedAt });
          const msg = await env.DB.prepare('SELECT status FROM messages WHERE id = ?').bind(message.id).first<{ status: string }>();
          const released = !['scheduled', 'armed'].includes(msg!.status);
          expect({ label, released }).toEqual({ label, released: m.released });
          const item = await env.DB.prepare(
            "SELECT status, (SELECT count(*) FROM message_transitions WHERE message_id = ?1 AND to_status = 'releasing') AS releases FROM messages WHERE id = ?1",
          )
            .bind(vault.message_id)
            .first<{ status: string; releases: number }>();
          expect({ label, vaultReleased: !['scheduled', 'armed'].includes(item!.status), vaultReleases: item!.releases }).toEqual({
            label,
            vaultReleased: m.released,
            vaultReleases: m.released ? 1 : 0,
          });
          const open = await env.DB.prepare("SELECT window_ends_at FROM death_reports WHERE owner_id = ? AND sandbox = 0 AND status = 'open'")
            .bind(owner.id)
            .first<{ window_ends_at: number | null }>();
          expect({ label, open: open ? (open.window_ends_at ?? 'gathering') : null }).toEqual({
            label,
            open: m.report ? (m.report.windowEnds ?? 'gathering') : null,
          });
          const once = await env.DB.prepare(
            `SELECT (SELECT count(*) FROM ladder_transitions t JOIN death_reports r ON r.id = t.report_id WHERE t.owner_id = ?1 AND t.kind = 'death_confirmed' AND r.sandbox = 0) AS confirmations,
                    (SELECT count(*) FROM message_transitions WHERE message_id = ?2 AND to_status = 'releasing') AS releases,
                    (SELECT count(*) FROM ladder_transitions WHERE owner_id = ?1 AND kind = 'guardians_asked') AS asks,
                    (SELECT count(DISTINCT dedupe_key) FROM ladder_transitions WHERE owner_id = ?1 AND kind = 'guardians_asked') AS askCycles`,
          )
            .bind(owner.id, message.id)
            .first<{ confirmations: number; releases: number; asks: number; askCycles: number }>();
          // The wished memorial page: never before a real confirmation, never twice.
          const pages = await env.DB.prepare('SELECT count(*) AS n FROM memorials WHERE created_by = ?').bind(owner.id).first<{ n: number }>();
          expect({ label, memorialPages: pages!.n <= (m.confirmedAt != null ? 1 : 0) }).toEqual({ label, memorialPages: true });
          expect({ label, confirmations: once!.confirmations, releases: once!.releases, asks: once!.asks }).toEqual({
            label,
            confirmations: m.confirmedAt != null ? 1 : 0,
            releases: m.released ? 1 : 0,
            asks: once!.askCycles,
          });
        };

        for (const [k, step] of steps.entries()) {
          const missed = now >= m.lastCheckIn + INTERVAL;
          switch (step.t) {
            case 'advance':
              now += step.hours * HOUR;
              break;
            case 'ask': {
              const misses = Math.floor((now - m.lastCheckIn - INTERVAL) / INTERVAL) + 1;
              if (!missed) break;
              const event: MissedCheckinsEvent = {
                type: 'missed_checkins',
                event_id: crypto.randomUUID(),
                user_id: owner.id,
                canary_id: canary.id,
                misses,
                deadline: new Date(m.lastCheckIn + INTERVAL).toISOString(),
                fired_at: new Date(now).toISOString(),
              };
              events.push(event);
              await run(() => askGuardians(at(), event));
              // Asking first makes D1 agree with the canary's object (a check-in it holds ends the cycle).
              settle(m);
              break;
            }
            case 'redeliverAsk':
              if (!events.length) break;
              await run(() => askGuardians(at(), events[k % events.length]!));
              settle(m);
              break;
            case 'report': {
              // Taken only once D1 has every check-in the objects hold (a guardian never reports against a stale copy).
              if (m.active[step.g] && m.confirmedAt == null) settle(m);
              const expectRefused = !m.active[step.g] || m.confirmedAt != null || now < m.lastCheckIn + INTERVAL;
              const got = await refused(() => answerAsGuardian(at(), guardianUsers[step.g]!, gids[step.g]!, { answer: 'report_death' }));
              expect({ k, step, refused: got }).toEqual({ k, step, refused: expectRefused });
              if (expectRefused) break;
              m.report ??= newReport(now);
              m.report.votes.add(step.g);
              const activeVotes = [...m.report.votes].filter((g) => m.active[g]).length;
              if (m.report.windowOpened == null && activeVotes >= m.quorum) openWindow(m.report, now);
              break;
            }
            case 'keyReport': {
              const got = await refused(() => reportDeath(at(), key(step.sandbox), {}));
              expect({ k, step, refused: got }).toEqual({ k, step, refused: m.confirmedAt != null });
              if (m.confirmedAt != null) break;
              if (step.sandbox) {
                if (!m.sandbox) {
                  m.sandbox = newReport(now);
                  openWindow(m.sandbox, now);
                }
                break;
              }
              m.report ??= newReport(now);
              m.report.key = true;
              if (m.report.windowOpened == null) openWindow(m.report, now);
              break;
            }
            case 'revoke': {
              const got = await refused(() => revokeGuardian(at(), owner.id, gids[step.g]!));
              expect({ k, step, refused: got }).toEqual({ k, step, refused: !m.active[step.g] });
              m.active[step.g] = false;
              break;
            }
            case 'hold': {
              const first = m.holds.length ? Math.min(...m.holds.map((h) => h.created)) : now;
              const until = Math.min(now + step.days * DAY, first + 30 * DAY);
              const expectRefused = !m.active[step.g] || m.confirmedAt != null || until <= now;
              const got = await refused(() => answerAsGuardian(at(), guardianUsers[step.g]!, gids[step.g]!, { answer: 'hold', days: step.days }));
              expect({ k, step, refused: got }).toEqual({ k, step, refused: expectRefused });
              if (!expectRefused) m.holds.push({ until, created: now });
              break;
            }
            case 'checkIn':
              await run(() => checkInAll(at(), owner.id, 'web'));
              m.lastCheckIn = now;
              m.report = null;
              m.sandbox = null;
              m.holds = [];
              // Its own, later check-in does all that one owed would (the object's latest is now written).
              m.owed = null;
              break;
            case 'objectCheckIn': {
              // A token check-in: the canary's object records it; its copy for D1 is never sent. A second
              // apart from the steps around it: whether a check-in refutes a report is decided by their times,
              // and a tie within one millisecond is not a case people make.
              now += 1000;
              await checkInWithQueueDown(canary.id, now);
              m.owed = now;
              now += 1000;
              break;
            }
            case 'run':
              await run(() => advanceLadder(at(), owner.id, 'direct'));
              if (step.twice) await run(() => advanceLadder(at(), owner.id, 'alarm'));
              modelRun(m, now);
              await runMessage();
              break;
            case 'jobs': {
              const ids = pendingJobs.splice(0);
              for (const id of ids) {
                await run(() => completeDeathConfirmation(at(), id));
                if (step.redeliver) await run(() => completeDeathConfirmation(at(), id));
              }
              await runMessage();
              break;
            }
          }
          await check(`step ${k} ${step.t}`);
        }

        // Liveness: far past every window and hold, everything due happens — once.
        now += 90 * DAY;
        await run(() => advanceLadder(at(), owner.id, 'direct'));
        modelRun(m, now);
        for (const id of pendingJobs.splice(0)) await run(() => completeDeathConfirmation(at(), id));
        await runMessage();
        await runMessage();
        await check('end');
        const pages = await env.DB.prepare('SELECT count(*) AS n FROM memorials WHERE created_by = ?').bind(owner.id).first<{ n: number }>();
        expect({ memorialPages: pages!.n }).toEqual({ memorialPages: m.confirmedAt != null ? 1 : 0 });
        // The release rule: confirmed only via a quorum of distinct guardians or a key.
      }),
      { numRuns: RUNS, ...replay },
    );
  }, 600_000);
});
