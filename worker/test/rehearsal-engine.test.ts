import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { CanaryNoticeJob, MissedCheckinsEvent } from '../src/contracts/jobs';
import type { TRehearsal } from '../src/contracts/rehearsal';
import { advanceCanary } from '../src/domains/canary/advance-canary';
import { processDeadmanSwitches } from '../src/domains/deadman/process-deadman';
import { setupDeadman } from '../src/domains/deadman/setup-deadman';
import { sendCanaryNotice } from '../src/domains/owner-notices/canary-notices';
import { createCanary } from '../src/domains/canary/create-canary';
import { advanceLadder } from '../src/domains/guardian/advance-ladder';
import { answerAsGuardian } from '../src/domains/guardian/answer-guardian';
import { completeDeathConfirmation } from '../src/domains/guardian/complete-confirmation';
import { askGuardians } from '../src/domains/guardian/ask-guardians';
import { advanceMessage } from '../src/domains/messages/release/advance-message';
import { armOnMissedCheckins } from '../src/domains/messages/release/arm-on-missed-checkins';
import { runRehearsal } from '../src/domains/rehearsal/run-rehearsal';
import { fanOutMissedCheckins } from '../src/domains/webhooks/fan-out';
import { signedInUser } from './helpers/api';
import { noQuietHours, servicesAt } from './helpers/canary';
import { deadmanCronAt, sendDeletionWarning } from './helpers/deadman';
import { guardianOf } from './helpers/guardian';
import { captureQueues, createMessageFor, type QueuedJob } from './helpers/messages';
import { giveVaultItem, withKeys } from './helpers/vault';
import { endpointFor } from './helpers/webhooks';

/**
 * The rehearsal against the real engine (docs/decisions/rehearsal.md): an owner with a canary, messages with
 * missed_checkins and fixed_date rules, a guardian, vault items and a webhook takes a rehearsal at T; then
 * the real engine runs from T on a fake clock with no check-in — each canary wake, notice, miss event and
 * message clock at the instants the engine itself asks for — and what it did must be the rehearsal's plan,
 * step by step. The fake clock runs a day ahead of the real one, so the real objects' alarms (armed on the
 * real clock) never find anything due meanwhile.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

async function userRow(id: string): Promise<User> {
  const [u] = await servicesAt(Date.now()).db.select().from(schema.users).where(eq(schema.users.id, id));
  return u!;
}

async function scenario() {
  const owner = await signedInUser();
  const recipient = await signedInUser();
  const guardian = await signedInUser();
  await noQuietHours(owner.id);
  await withKeys(recipient);
  const guardianship = await guardianOf(owner, guardian);
  const t0 = Date.now() + DAY;
  const canary = await createCanary(servicesAt(t0), await userRow(owner.id), { interval_seconds: 3600, name: 'Hourly' });
  const afterTwo = await createMessageFor(owner.token, {
    recipient_user_id: recipient.id,
    rules: [{ trigger_type: 'missed_checkins', trigger_value: 2, expire_window: 1 }],
  });
  const onDate = await createMessageFor(owner.token, {
    recipient_user_id: recipient.id,
    rules: [{ trigger_type: 'fixed_date', trigger_value: new Date(t0 + 3.5 * HOUR).toISOString(), expire_window: 0 }],
  });
  const vaultOnDate = await giveVaultItem(owner, recipient, { condition_type: 'exact_date', condition_value: new Date(t0 + 5 * HOUR).toISOString() });
  const vaultOnDeath = await giveVaultItem(owner, recipient, { condition_type: 'death_flag' });
  const hook = await endpointFor(owner, `rehearsal-${owner.id}`);
  return {
    owner,
    guardian,
    guardianship,
    t0,
    canary,
    hook,
    messageIds: [afterTwo.id, onDate.id, vaultOnDate.message_id, vaultOnDeath.message_id],
    vaultOnDeath,
  };
}

/** What the engine recorded, as "kind@time" lines the rehearsal's steps are compared with. */
async function engineRecord(ownerId: string, canaryId: string, messageIds: string[], webhookId: string, upTo: number) {
  const lines: string[] = [];
  const warnings = await env.DB.prepare(
    "SELECT kind, delivered_at FROM canary_transitions WHERE canary_id = ? AND kind IN ('grace_reminder', 'late_rewarn') AND delivered_at IS NOT NULL",
  )
    .bind(canaryId)
    .all<{ kind: string; delivered_at: number }>();
  for (const w of warnings.results) lines.push(`warning@${w.delivered_at}`);
  const misses = await env.DB.prepare(
    "SELECT misses, emitted_at FROM canary_transitions WHERE canary_id = ? AND kind = 'missed' AND emitted_at IS NOT NULL AND emitted_at <= ?",
  )
    .bind(canaryId, upTo)
    .all<{ misses: number; emitted_at: number }>();
  for (const m of misses.results) lines.push(`miss ${m.misses}@${m.emitted_at}`);
  const asked = await env.DB.prepare("SELECT at FROM ladder_transitions WHERE owner_id = ? AND kind = 'guardians_asked'").bind(ownerId).all<{ at: number }>();
  for (const a of asked.results) lines.push(`guardians_asked@${a.at}`);
  const hooks = await env.DB.prepare("SELECT payload, created_at FROM webhook_deliveries WHERE webhook_id = ? AND event = 'missed_checkins'")
    .bind(webhookId)
    .all<{ payload: string; created_at: number }>();
  for (const h of hooks.results) {
    const misses = JSON.parse(h.payload).data.misses as number;
    if (h.created_at <= upTo) lines.push(`webhook ${misses}@${h.created_at}`);
  }
  for (const id of messageIds) {
    const rows = await env.DB.prepare("SELECT to_status, created_at FROM message_transitions WHERE message_id = ? AND to_status IN ('armed', 'releasing')")
      .bind(id)
      .all<{ to_status: string; created_at: number }>();
    const released = rows.results.find((r) => r.to_status === 'releasing');
    for (const r of rows.results) {
      // Armed and released at one instant (no cancel window) is one step, the release.
      if (r.to_status === 'armed' && released?.created_at === r.created_at) continue;
      lines.push(`${r.to_status === 'armed' ? 'armed' : 'released'} ${id}@${r.created_at}`);
    }
  }
  return lines.sort();
}

/** The rehearsal's steps that happen whatever the guardians do, as the same lines. */
function plannedLines(report: TRehearsal, webhookId: string) {
  return report.steps
    .filter((s) => !s.conditional)
    .map((s) => {
      const at = Date.parse(s.at);
      if (s.kind === 'warning') return `warning@${at}`;
      if (s.kind === 'miss') return `miss ${s.misses}@${at}`;
      if (s.kind === 'guardians_asked') return `guardians_asked@${at}`;
      if (s.kind === 'webhook' && s.webhook_id === webhookId) return `webhook ${s.misses}@${at}`;
      if (s.kind === 'message_armed') return `armed ${s.message_id}@${at}`;
      if (s.kind === 'message_released' || s.kind === 'vault_released') return `released ${s.message_id}@${at}`;
      return `${s.kind}@${at}`;
    })
    .sort();
}

/**
 * The real engine from `from` to `until` with no check-in: the canary's object at each instant it asks for,
 * its notices sent (each warning reaching the owner through the local outbox), its miss events handed to their
 * subscribers, and each message's clock at the instants it asks for.
 */
async function runEngine(s: { canary: { id: string }; messageIds: string[] }, from: number, until: number, lastMiss: number) {
  const next = new Map<string, number>([['canary', from], ...s.messageIds.map((id) => [id, from] as [string, number])]);
  for (let round = 0; round < 200; round++) {
    const t = Math.min(...next.values());
    if (t > until) return;
    const jobs: QueuedJob[] = [];
    if (next.get('canary') === t) {
      const woke = await captureQueues(() => advanceCanary(servicesAt(t), s.canary.id, 'alarm'));
      jobs.push(...woke.jobs);
      const nextCanary = woke.result.nextDueAt?.getTime() ?? Number.POSITIVE_INFINITY;
      // The rehearsal looks no further than the last miss that matters; the engine goes on missing after it.
      next.set('canary', nextCanary > lastMiss ? Number.POSITIVE_INFINITY : nextCanary);
    }
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[i]!.body;
      if (job.type === 'canary_notice') jobs.push(...(await captureQueues(() => sendCanaryNotice(servicesAt(t), job as unknown as CanaryNoticeJob))).jobs);
      if (job.type === 'missed_checkins') {
        const event = job as unknown as MissedCheckinsEvent;
        await captureQueues(async () => {
          await armOnMissedCheckins(servicesAt(t), event);
          await fanOutMissedCheckins(servicesAt(t), event);
          await askGuardians(servicesAt(t), event);
        });
      }
    }
    for (const id of s.messageIds) {
      if (next.get(id)! > t) continue;
      const r = await captureQueues(() => advanceMessage(servicesAt(t), id, 'direct'));
      next.set(id, r.result.nextWakeAt?.getTime() ?? Number.POSITIVE_INFINITY);
    }
    // A miss that armed a message moved its clock: ask it again when it next needs attention.
    for (const id of s.messageIds) {
      const row = await env.DB.prepare("SELECT cancel_deadline FROM messages WHERE id = ? AND status = 'armed'").bind(id).first<{ cancel_deadline: number }>();
      if (row) next.set(id, Math.min(next.get(id)!, row.cancel_deadline));
    }
  }
  throw new Error('the engine did not settle in 200 rounds');
}

describe('a rehearsal and the real engine run the same scenario', () => {
  it('plans each warning, miss, guardian question, webhook, arming and release at the instant the engine then does it', async () => {
    const s = await scenario();
    const T = s.t0 + 10 * MIN;
    const report = await captureQueues(async () => runRehearsal(servicesAt(T), await userRow(s.owner.id), {}));
    const plan = report.result;
    const planned = plannedLines(plan, s.hook.id);
    // The plan holds the steps it should: a reminder at the grace period, two misses, the question, the webhooks, four releases.
    expect(planned).toContain(`warning@${s.t0 + 48 * MIN}`);
    expect(planned).toContain(`miss 1@${s.t0 + HOUR}`);
    expect(planned).toContain(`miss 2@${s.t0 + 2 * HOUR}`);
    expect(planned).toContain(`guardians_asked@${s.t0 + HOUR}`);
    expect(planned).toContain(`armed ${s.messageIds[0]}@${s.t0 + 2 * HOUR}`);
    expect(planned).toContain(`released ${s.messageIds[0]}@${s.t0 + 2 * HOUR + DAY}`);
    expect(planned).toContain(`released ${s.messageIds[1]}@${s.t0 + 3.5 * HOUR}`);
    expect(planned).toContain(`released ${s.messageIds[2]}@${s.t0 + 5 * HOUR}`);
    // The rehearsal itself changed nothing the engine reads.
    expect(await engineRecord(s.owner.id, s.canary.id, s.messageIds, s.hook.id, Number.POSITIVE_INFINITY)).toEqual([]);

    const lastMiss = Math.max(...plan.steps.filter((x) => x.kind === 'miss').map((x) => Date.parse(x.at)));
    const lastStep = Math.max(...plan.steps.filter((x) => !x.conditional).map((x) => Date.parse(x.at)));
    await runEngine(s, T, lastStep, lastMiss);
    expect(await engineRecord(s.owner.id, s.canary.id, s.messageIds, s.hook.id, lastMiss)).toEqual(planned);

    // The veto window: had the guardian reported the death when asked, it would be confirmed when the rehearsal said,
    // and the death-flag vault item released then.
    const askedAt = s.t0 + HOUR;
    await captureQueues(async () => answerAsGuardian(servicesAt(askedAt), await userRow(s.guardian.id), s.guardianship, { answer: 'report_death' }));
    const veto = plan.steps.find((x) => x.kind === 'veto_window_ends')!;
    expect(veto.conditional).toBe(true);
    const report0 = await env.DB.prepare('SELECT window_ends_at FROM death_reports WHERE owner_id = ?').bind(s.owner.id).first<{ window_ends_at: number }>();
    expect(report0?.window_ends_at).toBe(Date.parse(veto.at));
    // The ladder's clock at each instant it asks for (the halfway reminder, then the window's end), then the confirmation's job.
    let wake: number | null = askedAt;
    let confirmed: string[] = [];
    for (let i = 0; wake != null && !confirmed.length && i < 5; i++) {
      const r = await captureQueues(() => advanceLadder(servicesAt(wake!), s.owner.id, 'direct'));
      confirmed = r.result.confirmed;
      if (!confirmed.length) wake = r.result.nextWakeAt?.getTime() ?? null;
    }
    expect(wake).toBe(Date.parse(veto.at));
    await captureQueues(() => completeDeathConfirmation(servicesAt(wake!), confirmed[0]!));
    await captureQueues(() => advanceMessage(servicesAt(wake!), s.vaultOnDeath.message_id, 'direct'));
    const deathItem = plan.steps.find((x) => x.message_id === s.vaultOnDeath.message_id);
    expect(deathItem).toMatchObject({ kind: 'vault_released', conditional: true, at: veto.at });
    const released = await env.DB.prepare("SELECT created_at FROM message_transitions WHERE message_id = ? AND to_status = 'releasing'")
      .bind(s.vaultOnDeath.message_id)
      .first<{ created_at: number }>();
    expect(released?.created_at).toBe(Date.parse(veto.at));
  });
});

/**
 * From anywhere in a cycle: the engine runs up to T with no check-in (the reminder recorded and delivered, or a
 * deadline already passed with no wake — our lateness), the rehearsal reads that state at T, and what the engine
 * does from T is what the rehearsal said.
 */
describe('a rehearsal taken at any point of a cycle', () => {
  it.each([0.5, 0.85, 0.97, 1.02, 1.5, 2.3])('at %s of the interval, plans what the engine then does', async (offset) => {
    const owner = await signedInUser();
    const recipient = await signedInUser();
    await noQuietHours(owner.id);
    const t0 = Date.now() + DAY;
    const canary = await createCanary(servicesAt(t0), await userRow(owner.id), { interval_seconds: 3600, name: 'Hourly' });
    const message = await createMessageFor(owner.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: 3, expire_window: 0 }],
    });
    const hook = await endpointFor(owner, `rehearsal-offset-${owner.id}`);
    const s = { canary, messageIds: [message.id] };
    const T = t0 + Math.round(offset * HOUR);
    // Before T the engine ran as its timers asked — except past the deadline, where no wake came (a late service).
    if (offset < 1) await runEngine(s, t0, T - 1, T - 1);

    const plan = (await captureQueues(async () => runRehearsal(servicesAt(T), await userRow(owner.id), {}))).result;
    const planned = plannedLines(plan, hook.id);
    expect(planned.some((l) => l.startsWith(`released ${message.id}@`))).toBe(true);
    const lastMiss = Math.max(...plan.steps.filter((x) => x.kind === 'miss').map((x) => Date.parse(x.at)));
    const lastStep = Math.max(...plan.steps.map((x) => Date.parse(x.at)));
    await runEngine(s, T, lastStep, lastMiss);
    const done = (await engineRecord(owner.id, canary.id, [message.id], hook.id, lastMiss)).filter((l) => Number(l.split('@')[1]) >= T);
    expect(done).toEqual(planned);
  });
});

/**
 * The dead-man's switch: the rehearsal plans the deletion's scheduling when the deadline passes and the erasure a
 * day later (`deadmanDeletionDate`, the warning reaching the owner at once); the every-minute cron, run at those
 * instants with no check-in and the warning delivered, does exactly that.
 */
describe("a rehearsal and the real dead-man's switch", () => {
  it('plans the deletion scheduled at the deadline and the account erased at the date the cron then sets and keeps', async () => {
    const owner = await signedInUser();
    await noQuietHours(owner.id);
    const t0 = Date.now() + DAY;
    await setupDeadman(servicesAt(t0), owner.id, { hours: 2 });
    const T = t0 + 30 * MIN;
    const plan = (await captureQueues(async () => runRehearsal(servicesAt(T), await userRow(owner.id), {}))).result;
    const scheduled = plan.steps.find((s) => s.kind === 'deletion_scheduled');
    const erased = plan.steps.find((s) => s.kind === 'account_deleted');
    expect(Date.parse(scheduled!.at)).toBe(t0 + 2 * HOUR);
    expect(Date.parse(erased!.at)).toBe(t0 + 2 * HOUR + DAY);

    // The cron a minute before the deadline does nothing; at the planned instant it schedules the planned date.
    await processDeadmanSwitches(servicesAt(Date.parse(scheduled!.at) - MIN));
    expect(await env.DB.prepare('SELECT count(*) AS n FROM scheduled_deletions WHERE user_id = ?').bind(owner.id).first('n')).toBe(0);
    await deadmanCronAt(Date.parse(scheduled!.at));
    // Its warning reaches the owner at once (the local outbox), as the rehearsal plans.
    expect(await sendDeletionWarning(owner.id, Date.parse(scheduled!.at))).toBe('sent');
    const row = await env.DB.prepare("SELECT deletion_date FROM scheduled_deletions WHERE user_id = ? AND status = 'scheduled'")
      .bind(owner.id)
      .first<{ deletion_date: number }>();
    expect(row?.deletion_date).toBe(Date.parse(erased!.at));

    // A rehearsal taken now plans only the erasure, at the date already set.
    const later = (await captureQueues(async () => runRehearsal(servicesAt(Date.parse(scheduled!.at) + 20 * MIN), await userRow(owner.id), {}))).result;
    expect(later.steps.filter((s) => s.kind === 'deletion_scheduled')).toEqual([]);
    expect(later.steps.find((s) => s.kind === 'account_deleted')?.at).toBe(erased!.at);

    await processDeadmanSwitches(servicesAt(Date.parse(erased!.at) - MIN));
    expect(await env.DB.prepare('SELECT count(*) AS n FROM users WHERE id = ?').bind(owner.id).first('n')).toBe(1);
    await processDeadmanSwitches(servicesAt(Date.parse(erased!.at)));
    expect(await env.DB.prepare('SELECT count(*) AS n FROM users WHERE id = ?').bind(owner.id).first('n')).toBe(0);
  });
});
