import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { env, runDurableObjectAlarm } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ZDeathConfirmedPayload } from '../src/contracts/webhooks';
import { humanTime } from '../src/lib/human-time';
import { checkInAll } from '../src/domains/canary/check-in';
import { createCanary } from '../src/domains/canary/create-canary';
import type { MissedCheckinsEvent } from '../src/contracts/jobs';
import { reportDeath } from '../src/domains/developer/death-verification';
import { advanceLadder, HALFWAY_LATE_MS } from '../src/domains/guardian/advance-ladder';
import { answerAsGuardian } from '../src/domains/guardian/answer-guardian';
import { askGuardians } from '../src/domains/guardian/ask-guardians';
import { completeDeathConfirmation } from '../src/domains/guardian/complete-confirmation';
import { sendGuardianNotice } from '../src/domains/guardian/guardian-notices';
import { getLadderView } from '../src/domains/guardian/ladder-view';
import { reconcileLadder } from '../src/domains/guardian/reconcile-ladder';
import { deliverMessage } from '../src/domains/messages/delivery/deliver-message';
import { sendOwnerNotice } from '../src/domains/owner-notices/send-owner-notice';
import { advanceMessage } from '../src/domains/messages/release/advance-message';
import { armOnMissedCheckins } from '../src/domains/messages/release/arm-on-missed-checkins';
import type { KeyPrincipal } from '../src/middleware/context';
import { api, signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';
import { guardianOf, ladderSteps } from './helpers/guardian';
import { checkInWithQueueDown } from './helpers/canary-clock';
import { captureQueues, createMessageFor, messageRow, type QueuedJob } from './helpers/messages';
import { endpointFor } from './helpers/webhooks';

/**
 * The guardian ladder with a controlled clock (docs/decisions/guardian-ladder.md): owner, guardians and
 * an outsider; services called at chosen instants, queues captured so each consumer runs when the test
 * says. The fake clock runs days ahead of the real one, so the real GuardianClock and ReleaseClock
 * objects (armed by the real clock) never find anything due while a test lasts.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WINDOW = 72 * HOUR;

async function userRow(id: string): Promise<User> {
  const [u] = await servicesAt(Date.now()).db.select().from(schema.users).where(eq(schema.users.id, id));
  return u!;
}

/** An owner with a daily canary created at t0 (missing from t0 + 1 day) and `n` accepted guardians. */
async function ladder(n: number, quorum = 1) {
  const owner = await signedInUser({ display_name: undefined });
  await api('PATCH', '/api/profile', { token: owner.token, json: { display_name: 'Ada' } });
  const guardians = await Promise.all(Array.from({ length: n }, () => signedInUser()));
  const ids: string[] = [];
  for (const g of guardians) ids.push(await guardianOf(owner, g));
  if (quorum !== 1) expect((await api('PUT', '/api/guardian/settings', { token: owner.token, json: { quorum } })).status).toBe(200);
  const t0 = Date.now() + DAY;
  const canary = await createCanary(servicesAt(t0), await userRow(owner.id), { interval_seconds: DAY / 1000, name: 'daily' });
  const missedAt = t0 + DAY + 1000;
  return { owner, guardians, ids, t0, canary, missedAt };
}

const answer = async (at: number, guardian: { id: string }, id: string, body: unknown) =>
  captureQueues(async () => answerAsGuardian(servicesAt(at), await userRow(guardian.id), id, body));

const reportAt = (at: number, guardian: { id: string }, id: string) => answer(at, guardian, id, { answer: 'report_death' });

async function openReport(ownerId: string) {
  return env.DB.prepare("SELECT * FROM death_reports WHERE owner_id = ? AND status = 'open' AND sandbox = 0").bind(ownerId).first<Record<string, any>>();
}

const kinds = async (ownerId: string) =>
  (await ladderSteps(ownerId)).map((s) => s.kind).filter((k) => !['guardian_invited', 'guardian_accepted', 'settings_changed'].includes(k));

function missedEvent(l: Awaited<ReturnType<typeof ladder>>, misses = 1): MissedCheckinsEvent {
  return {
    type: 'missed_checkins',
    event_id: crypto.randomUUID(),
    user_id: l.owner.id,
    canary_id: l.canary.id,
    misses,
    deadline: new Date(l.t0 + DAY).toISOString(),
    fired_at: new Date(l.t0 + DAY).toISOString(),
  };
}

const jobsOf = (jobs: QueuedJob[], type: string) => jobs.filter((j) => j.body.type === type);

describe('the ladder, step by step', () => {
  it('goes missed → guardians asked → reported → veto window (owner told at once and halfway, on every channel) → confirmed → releases and webhook, in that order', async () => {
    const l = await ladder(1);
    const [guardian] = l.guardians;
    const hook = await endpointFor(l.owner, `ladder-${crypto.randomUUID()}`, { event: 'death_confirmed' });
    const recipient = await signedInUser();
    const m = await createMessageFor(l.owner.token, { recipient_user_id: recipient.id, rules: [{ trigger_type: 'delay_after_death', trigger_value: 0 }] });

    // 1. Missed: each active guardian is asked, once, with a link to their page.
    const asked = await captureQueues(() => askGuardians(servicesAt(l.missedAt), missedEvent(l)));
    expect(asked.result).toBe(1);
    const noticeId = jobsOf(asked.jobs, 'guardian_notice')[0]!.body.notice_id as string;
    await sendGuardianNotice(servicesAt(l.missedAt), noticeId);
    const mail = await env.DB.prepare('SELECT * FROM outbox_messages WHERE idempotency_key = ?')
      .bind(`guardian-notice:${noticeId}`)
      .first<Record<string, any>>();
    expect(mail).toMatchObject({ channel: 'email', address: guardian!.email, recipient_user_id: guardian!.id, subject: 'Have you heard from Ada?' });
    expect(mail!.text).toContain('/app/guardian');

    // 2. Reported: quorum 1, so the window opens at once and the owner is told urgently — with the
    // deadline written in the owner's own zone.
    await env.DB.prepare("UPDATE users SET time_zone = 'Europe/Berlin' WHERE id = ?").bind(l.owner.id).run();
    const at = l.missedAt + HOUR;
    const reported = await reportAt(at, guardian!, l.ids[0]!);
    expect(reported.result).toMatchObject({ recorded: 'death_reported', stage: 'veto_window' });
    const r = (await openReport(l.owner.id))!;
    expect(r).toMatchObject({ window_opened_at: at, window_ends_at: at + WINDOW, halfway_at: at + WINDOW / 2 });
    const told = jobsOf(reported.jobs, 'owner_notice');
    expect(told).toHaveLength(1);
    // Every channel the owner has, even with every alert switched off and only push chosen.
    await api('POST', '/api/notify/preferences', {
      token: l.owner.token,
      json: { methods: ['push'], quiet_hours: { start: '00:00', end: '23:59' }, alerts: { vaults: false, messages: false, canary_events: false } },
    });
    expect(await sendOwnerNotice(servicesAt(at), told[0]!.body.notice_id as string)).toBe('sent');
    const warned = await env.DB.prepare(
      "SELECT * FROM outbox_messages WHERE recipient_user_id = ? AND channel = 'email' AND subject LIKE 'Your death was reported%'",
    )
      .bind(l.owner.id)
      .first<Record<string, any>>();
    expect(warned!.text).toContain(humanTime(at + WINDOW, 'Europe/Berlin'));
    expect(warned!.text).toMatch(/check in before \w{3}, \d{1,2} \w{3} \d{4}, \d{2}:\d{2} (CET|CEST):/);

    // Nothing is due before halfway; at halfway the owner is told again.
    expect((await captureQueues(() => advanceLadder(servicesAt(at + WINDOW / 2 - 1), l.owner.id, 'direct'))).result.nextWakeAt?.getTime()).toBe(
      at + WINDOW / 2,
    );
    const half = await captureQueues(() => advanceLadder(servicesAt(at + WINDOW / 2), l.owner.id, 'direct'));
    expect(half.result.nextWakeAt?.getTime()).toBe(at + WINDOW);
    expect(jobsOf(half.jobs, 'owner_notice')).toHaveLength(1);
    const reminder = await env.DB.prepare("SELECT subject FROM owner_notices WHERE user_id = ? AND kind = 'veto_halfway'")
      .bind(l.owner.id)
      .first<{ subject: string }>();
    expect(reminder!.subject).toBe(`Reminder: your death was reported — check in before ${humanTime(at + WINDOW, 'Europe/Berlin')}`);

    // Not a millisecond early.
    await captureQueues(() => advanceLadder(servicesAt(at + WINDOW - 1), l.owner.id, 'direct'));
    expect((await userRow(l.owner.id)).death_confirmed_at).toBeNull();
    expect((await messageRow(m.id))!.status).toBe('scheduled');

    // 4. Confirmed at the window's end: the flag, the guardians told, then the job fires releases and the webhook.
    const end = at + WINDOW;
    const confirmed = await captureQueues(() => advanceLadder(servicesAt(end), l.owner.id, 'direct'));
    expect(confirmed.result).toEqual({ nextWakeAt: null, confirmed: [r.id] });
    expect((await userRow(l.owner.id)).death_confirmed_at?.getTime()).toBe(end);
    expect(jobsOf(confirmed.jobs, 'death_confirmed')).toEqual([expect.objectContaining({ body: { type: 'death_confirmed', report_id: r.id } })]);
    expect(jobsOf(confirmed.jobs, 'guardian_notice')).toHaveLength(1);
    const effects = await captureQueues(() => completeDeathConfirmation(servicesAt(end + 1000), r.id));
    expect(effects.result).toBe('done');
    await captureQueues(() => advanceMessage(servicesAt(end + 2000), m.id, 'direct'));
    expect((await messageRow(m.id))!.status).toBe('releasing');
    const delivery = await env.DB.prepare('SELECT * FROM webhook_deliveries WHERE webhook_id = ?').bind(hook.id).first<Record<string, any>>();
    expect(delivery).toMatchObject({ event: 'death_confirmed', event_id: `death:${r.id}`, status: 'pending' });
    expect(ZDeathConfirmedPayload.parse(JSON.parse(delivery!.payload))).toEqual({
      type: 'death_confirmed',
      timestamp: new Date(end).toISOString(),
      data: {
        user_id: l.owner.id,
        event: 'death_confirmed',
        report_id: r.id,
        reported_at: new Date(at).toISOString(),
        window_ends_at: new Date(end).toISOString(),
        confirmed_at: new Date(end).toISOString(),
      },
    });

    expect(await kinds(l.owner.id)).toEqual(['guardians_asked', 'death_reported', 'veto_opened', 'veto_halfway', 'death_confirmed']);
    const view = await getLadderView(servicesAt(end + 3000), await userRow(l.owner.id));
    expect(view).toMatchObject({ stage: 'confirmed', death_confirmed_at: new Date(end).toISOString(), next: null });
    expect(view.transitions[0]).toMatchObject({ kind: 'death_confirmed', actor: 'system', cause: 'veto_window_ended', report_id: r.id });
  });

  it('asks guardians once per missed cycle: a redelivered event asks nobody again, a stale one or too few misses asks nobody', async () => {
    const l = await ladder(2);
    expect((await captureQueues(() => askGuardians(servicesAt(l.missedAt), missedEvent(l)))).result).toBe(2);
    const again = await captureQueues(() => askGuardians(servicesAt(l.missedAt + 1000), missedEvent(l)));
    expect(again.result).toBe(0);
    expect((await kinds(l.owner.id)).filter((k) => k === 'guardians_asked')).toHaveLength(1);
    // A check-in ends the cycle: that cycle's late event is stale.
    await captureQueues(() => checkInAll(servicesAt(l.missedAt + 2000), l.owner.id, 'web'));
    expect((await captureQueues(() => askGuardians(servicesAt(l.missedAt + 3000), missedEvent(l, 2)))).result).toBe(0);
    // ask_after_misses 2: one miss asks nobody.
    const m = await ladder(1);
    await api('PUT', '/api/guardian/settings', { token: m.owner.token, json: { ask_after_misses: 2 } });
    expect((await captureQueues(() => askGuardians(servicesAt(m.missedAt), missedEvent(m, 1)))).result).toBe(0);
    expect((await captureQueues(() => askGuardians(servicesAt(m.missedAt + DAY), missedEvent(m, 2)))).result).toBe(1);
  });

  it('asks nobody when a check-in D1 has not heard of yet ended the missed cycle (the object is asked first)', async () => {
    const l = await ladder(2);
    // The owner checks in by token after the deadline; the copy for D1 is not sent.
    await checkInWithQueueDown(l.canary.id, l.missedAt);
    const asked = await captureQueues(() => askGuardians(servicesAt(l.missedAt + 1000), missedEvent(l)));
    expect(asked.result).toBe(0);
    expect(jobsOf(asked.jobs, 'guardian_notice')).toEqual([]);
    expect(await kinds(l.owner.id)).toEqual([]);
  });

  it('needs two distinct guardians for a quorum of 2 of 3: the same guardian twice counts once', async () => {
    const l = await ladder(3, 2);
    const [a, b] = l.guardians;
    const first = await reportAt(l.missedAt, a!, l.ids[0]!);
    expect(first.result).toMatchObject({ recorded: 'death_reported', stage: 'reported', report: { votes: 1, quorum: 2, window_ends_at: null } });
    const twice = await reportAt(l.missedAt + HOUR, a!, l.ids[0]!);
    expect(twice.result).toMatchObject({ recorded: 'already_reported', stage: 'reported', report: { votes: 1 } });
    expect(jobsOf(twice.jobs, 'owner_notice')).toEqual([]);
    expect((await openReport(l.owner.id))!.window_opened_at).toBeNull();
    const second = await reportAt(l.missedAt + 2 * HOUR, b!, l.ids[1]!);
    expect(second.result).toMatchObject({
      recorded: 'death_reported',
      stage: 'veto_window',
      report: { votes: 2, window_ends_at: new Date(l.missedAt + 2 * HOUR + WINDOW).toISOString() },
    });
    expect(await kinds(l.owner.id)).toEqual(['death_reported', 'death_reported', 'veto_opened']);
  });

  it('refuses a report from a revoked, declined or resigned guardian (403) and records nothing', async () => {
    const l = await ladder(2);
    const [revoked, resigned] = l.guardians;
    expect((await api('DELETE', `/api/guardian/${l.ids[0]}`, { token: l.owner.token })).status).toBe(200);
    expect((await api('POST', `/api/guardian/${l.ids[1]}/resign`, { token: resigned!.token })).status).toBe(200);
    const declined = await signedInUser();
    await api('POST', '/api/guardian/assign', { token: l.owner.token, json: { email: declined.email, consent: true } });
    const { invitationToken, sendPendingGuardianNotices } = await import('./helpers/guardian');
    await sendPendingGuardianNotices();
    const dec = await api('POST', '/api/guardian/decline', { token: declined.token, json: { token: await invitationToken(declined.email) } });
    expect(dec.data.status).toBe('declined');
    for (const [who, id] of [
      [revoked!, l.ids[0]!],
      [resigned!, l.ids[1]!],
      [declined, dec.data.id as string],
    ] as const) {
      await expect(reportAt(l.missedAt, who, id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      const http = await api('POST', `/api/guardian/${id}/answer`, { token: who.token, json: { answer: 'report_death' } });
      expect(http.status).toBe(403);
      expect(http.data.detail).toMatch(/no longer a guardian of Ada/);
    }
    expect(await kinds(l.owner.id)).toEqual(['guardian_revoked', 'guardian_resigned', 'guardian_declined']);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM death_reports WHERE owner_id = ?').bind(l.owner.id).first('n')).toBe(0);
  });

  it('refuses a report before the owner missed a check-in (409)', async () => {
    const l = await ladder(1);
    await expect(reportAt(l.t0 + HOUR, l.guardians[0]!, l.ids[0]!)).rejects.toMatchObject({
      code: 'CONFLICT',
      detail: expect.stringMatching(/has not missed a check-in/),
    });
  });

  it('a check-in inside the veto window refutes the report (owner as actor, guardians told); a later report starts a new window', async () => {
    const l = await ladder(2);
    const at = l.missedAt;
    await reportAt(at, l.guardians[0]!, l.ids[0]!);
    const reportId = (await openReport(l.owner.id))!.id;
    const checkIn = await captureQueues(() => checkInAll(servicesAt(at + DAY), l.owner.id, 'web'));
    expect(await env.DB.prepare('SELECT status, closed_at FROM death_reports WHERE id = ?').bind(reportId).first()).toEqual({
      status: 'refuted',
      closed_at: at + DAY,
    });
    expect((await ladderSteps(l.owner.id)).at(-1)).toMatchObject({ kind: 'refuted', actor: 'owner', cause: 'check_in', report_id: reportId });
    const told = jobsOf(checkIn.jobs, 'guardian_notice');
    expect(told).toHaveLength(2);
    await sendGuardianNotice(servicesAt(at + DAY), told[0]!.body.notice_id as string);
    // The window's end passes: nothing is confirmed.
    await captureQueues(() => advanceLadder(servicesAt(at + 2 * WINDOW), l.owner.id, 'direct'));
    expect((await userRow(l.owner.id)).death_confirmed_at).toBeNull();

    // Missing again: a new report opens a new window, from its own time.
    const again = at + DAY + DAY + 1000;
    expect((await reportAt(again, l.guardians[1]!, l.ids[1]!)).result).toMatchObject({
      stage: 'veto_window',
      report: { window_ends_at: new Date(again + WINDOW).toISOString() },
    });
    const fresh = (await openReport(l.owner.id))!;
    expect(fresh.id).not.toBe(reportId);
    expect(await kinds(l.owner.id)).toEqual(['death_reported', 'veto_opened', 'refuted', 'death_reported', 'veto_opened']);
  });

  it('a check-in D1 has not heard of yet (its projection still on the queue) still refutes the report when the window ends', async () => {
    const l = await ladder(1);
    const at = l.missedAt;
    await reportAt(at, l.guardians[0]!, l.ids[0]!);
    const reportId = (await openReport(l.owner.id))!.id;
    // The owner checks in by the canary's token two days into the window: the object records it; the
    // copy for D1 is not sent (lost with the isolate, or still queued when the window ends).
    const checkedInAt = at + 2 * DAY;
    await checkInWithQueueDown(l.canary.id, checkedInAt);
    expect((await openReport(l.owner.id))?.id).toBe(reportId);

    // The halfway reminder on time, then the window's end.
    await captureQueues(() => advanceLadder(servicesAt(at + WINDOW / 2 + 1000), l.owner.id, 'direct'));
    await captureQueues(() => advanceLadder(servicesAt(at + WINDOW + 1000), l.owner.id, 'direct'));

    expect((await userRow(l.owner.id)).death_confirmed_at).toBeNull();
    expect(await env.DB.prepare('SELECT status, closed_at FROM death_reports WHERE id = ?').bind(reportId).first()).toEqual({
      status: 'refuted',
      closed_at: checkedInAt,
    });
    expect(await kinds(l.owner.id)).not.toContain('death_confirmed');
  });

  it('refuses a report (409) when the owner checked in by token and D1 has not heard of it yet: the objects are asked first', async () => {
    const l = await ladder(1);
    // Checked in an hour before the deadline; the copy for D1 is not sent, so D1 alone would call them missed.
    await checkInWithQueueDown(l.canary.id, l.t0 + DAY - HOUR);
    await expect(reportAt(l.missedAt, l.guardians[0]!, l.ids[0]!)).rejects.toMatchObject({
      code: 'CONFLICT',
      detail: expect.stringMatching(/has not missed a check-in/),
    });
    expect(await openReport(l.owner.id)).toBeNull();
    expect(await kinds(l.owner.id)).toEqual([]);
  });

  it('a hold pauses death-triggered releases and nothing else', async () => {
    const l = await ladder(1);
    const recipient = await signedInUser();
    const byDeath = await createMessageFor(l.owner.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'delay_after_death', trigger_value: 0 }],
    });
    const byMisses = await createMessageFor(l.owner.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: 1, expire_window: 0 }],
    });
    const at = l.missedAt;
    await reportAt(at, l.guardians[0]!, l.ids[0]!);
    const hold = await answer(at + HOUR, l.guardians[0]!, l.ids[0]!, { answer: 'hold', days: 5 });
    const holdEnd = at + HOUR + 5 * DAY;
    expect(hold.result).toMatchObject({ recorded: 'hold', hold_until: new Date(holdEnd).toISOString() });

    await captureQueues(() => advanceLadder(servicesAt(at + WINDOW / 2), l.owner.id, 'direct'));
    const paused = await captureQueues(() => advanceLadder(servicesAt(at + WINDOW + HOUR), l.owner.id, 'direct'));
    expect(paused.result.nextWakeAt?.getTime()).toBe(holdEnd);
    expect((await userRow(l.owner.id)).death_confirmed_at).toBeNull();
    expect((await getLadderView(servicesAt(at + WINDOW + HOUR), await userRow(l.owner.id))).stage).toBe('on_hold');
    // Nothing else waits: a missed-check-ins rule still fires and releases.
    await captureQueues(() => armOnMissedCheckins(servicesAt(at + WINDOW + HOUR), missedEvent(l)));
    await captureQueues(() => advanceMessage(servicesAt(at + WINDOW + HOUR), byMisses.id, 'direct'));
    expect((await messageRow(byMisses.id))!.status).toBe('releasing');
    expect((await messageRow(byDeath.id))!.status).toBe('scheduled');

    // At the hold's end the confirmation goes through, and the death-triggered message follows.
    const done = await captureQueues(() => advanceLadder(servicesAt(holdEnd), l.owner.id, 'direct'));
    expect(done.result.confirmed).toHaveLength(1);
    await captureQueues(() => completeDeathConfirmation(servicesAt(holdEnd), done.result.confirmed[0]!));
    await captureQueues(() => advanceMessage(servicesAt(holdEnd + 1000), byDeath.id, 'direct'));
    expect((await messageRow(byDeath.id))!.status).toBe('releasing');
  });

  it('holds pause at most 30 days per episode, and a check-in ends them', async () => {
    const l = await ladder(1);
    const at = l.missedAt;
    await answer(at, l.guardians[0]!, l.ids[0]!, { answer: 'hold', days: 30 });
    const capped = await answer(at + 20 * DAY, l.guardians[0]!, l.ids[0]!, { answer: 'hold', days: 30 });
    expect(capped.result.hold_until).toBe(new Date(at + 30 * DAY).toISOString());
    await expect(answer(at + 30 * DAY, l.guardians[0]!, l.ids[0]!, { answer: 'hold', days: 1 })).rejects.toMatchObject({ code: 'CONFLICT' });
    await captureQueues(() => checkInAll(servicesAt(at + 30 * DAY + 1), l.owner.id, 'web'));
    expect(await env.DB.prepare('SELECT count(*) AS n FROM guardian_holds WHERE owner_id = ? AND ended_at IS NULL').bind(l.owner.id).first('n')).toBe(0);
  });

  it('sets the death flag exactly once under repeated and concurrent runs, alarms, the reconciler and queue redelivery', async () => {
    const l = await ladder(1);
    const recipient = await signedInUser();
    const hook = await endpointFor(l.owner, `once-${crypto.randomUUID()}`, { event: 'death_confirmed' });
    const m = await createMessageFor(l.owner.token, { recipient_user_id: recipient.id, rules: [{ trigger_type: 'delay_after_death', trigger_value: 0 }] });
    const at = l.missedAt;
    await reportAt(at, l.guardians[0]!, l.ids[0]!);
    await captureQueues(() => advanceLadder(servicesAt(at + WINDOW / 2), l.owner.id, 'direct'));
    const end = at + WINDOW;
    const runs = await captureQueues(() =>
      Promise.all([
        advanceLadder(servicesAt(end), l.owner.id, 'direct'),
        advanceLadder(servicesAt(end + 1), l.owner.id, 'alarm'),
        advanceLadder(servicesAt(end + 2), l.owner.id, 'reconciler'),
        reconcileLadder(servicesAt(end + 3)),
      ]),
    );
    expect(runs.result.slice(0, 3).flatMap((r) => ('confirmed' in r ? r.confirmed : []))).toHaveLength(1);
    const stub = env.GUARDIAN_CLOCK.get(env.GUARDIAN_CLOCK.idFromName(l.owner.id));
    await runDurableObjectAlarm(stub);
    await runDurableObjectAlarm(stub);
    const jobs = jobsOf(runs.jobs, 'death_confirmed');
    expect(jobs).toHaveLength(1);
    const reportId = jobs[0]!.body.report_id as string;
    // The job redelivered, and the reconciler finishing "lost" work: nothing new.
    for (let i = 0; i < 3; i++) await captureQueues(() => completeDeathConfirmation(servicesAt(end + 10 + i), reportId));
    await captureQueues(() => reconcileLadder(servicesAt(end + 10 * 60_000)));
    for (let i = 0; i < 3; i++) {
      const { jobs: released } = await captureQueues(() => advanceMessage(servicesAt(end + 20 + i), m.id, 'direct'));
      for (const d of released.filter((j) => j.body.type === 'deliver'))
        await captureQueues(() => deliverMessage(servicesAt(end + 30), d.body.delivery_id as string));
    }
    expect((await userRow(l.owner.id)).death_confirmed_at?.getTime()).toBe(end);
    expect((await kinds(l.owner.id)).filter((k) => k === 'death_confirmed')).toHaveLength(1);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ?').bind(hook.id).first('n')).toBe(1);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM message_transitions WHERE message_id = ? AND to_status = 'releasing'").bind(m.id).first('n')).toBe(
      1,
    );
    expect(await env.DB.prepare("SELECT count(*) AS n FROM delivery_log WHERE message_id = ? AND channel = 'email'").bind(m.id).first('n')).toBeLessThanOrEqual(
      1,
    );
  });

  it('the reconciler advances an owner whose clock was lost, and re-arms it', async () => {
    const l = await ladder(1);
    const at = l.missedAt;
    await reportAt(at, l.guardians[0]!, l.ids[0]!);
    await env.DB.prepare('UPDATE death_reports SET timer_due_at = NULL WHERE owner_id = ?').bind(l.owner.id).run();
    const half = await captureQueues(() => reconcileLadder(servicesAt(at + WINDOW / 2 + 60_000)));
    expect(half.result.timers).toBeGreaterThanOrEqual(1);
    expect((await openReport(l.owner.id))!.halfway_sent_at).toBe(at + WINDOW / 2 + 60_000);
    await env.DB.prepare('UPDATE death_reports SET timer_due_at = NULL WHERE owner_id = ?').bind(l.owner.id).run();
    await captureQueues(() => reconcileLadder(servicesAt(at + WINDOW + 60_000)));
    expect((await userRow(l.owner.id)).death_confirmed_at?.getTime()).toBe(at + WINDOW + 60_000);
  });

  it('moves the window end when the halfway reminder went out late (our outage never shortens the owner’s time)', async () => {
    const l = await ladder(1);
    const at = l.missedAt;
    await reportAt(at, l.guardians[0]!, l.ids[0]!);
    const late = at + WINDOW / 2 + HALFWAY_LATE_MS + HOUR;
    const res = await captureQueues(() => advanceLadder(servicesAt(late), l.owner.id, 'direct'));
    expect(res.result.nextWakeAt?.getTime()).toBe(late + WINDOW / 2);
    await captureQueues(() => advanceLadder(servicesAt(at + WINDOW), l.owner.id, 'direct'));
    expect((await userRow(l.owner.id)).death_confirmed_at).toBeNull();
  });
});

describe('POST /api/death-verification/report (an executor’s key)', () => {
  const keyPrincipal = async (userId: string, sandbox: boolean): Promise<KeyPrincipal> =>
    ({ user: await userRow(userId), via: 'key', keyId: crypto.randomUUID(), scopes: ['webhook:death-verification'], sandbox }) as unknown as KeyPrincipal;

  it('opens the veto window by itself, without a miss; repeating records nothing new; a check-in refutes it', async () => {
    const owner = await signedInUser();
    const created = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'executor', scopes: ['webhook:death-verification'] } });
    const res = await api('POST', '/api/death-verification/report', { token: created.data.key, json: { note: 'certificate 123' } });
    expect(res.status).toBe(202);
    expect(res.data).toMatchObject({ recorded: 'death_reported', sandbox: false, report: { status: 'open', votes: 1, window_ends_at: expect.any(String) } });
    const again = await api('POST', '/api/death-verification/report', { token: created.data.key });
    expect(again.data.recorded).toBe('already_reported');
    expect(await ladderSteps(owner.id)).toEqual([
      expect.objectContaining({ kind: 'death_reported', actor: `key:${created.data.id}`, cause: 'key_report' }),
      expect.objectContaining({ kind: 'veto_opened', cause: 'key_report' }),
    ]);
    expect((await api('POST', '/api/death-verification/report', { token: created.data.key, json: { note: 5 } })).status).toBe(422);
    expect((await api('POST', '/api/canary/checkin', { token: owner.token, json: {} })).status).toBe(200);
    expect((await api('GET', '/api/guardian/ladder', { token: owner.token })).data.report.status).toBe('refuted');
  });

  it('a key report that arrives as the death is confirmed (its account read just before) is 409 and records nothing', async () => {
    const owner = await signedInUser();
    const t = Date.now() + DAY;
    const readBefore = await keyPrincipal(owner.id, false);
    await captureQueues(() => reportDeath(servicesAt(t), readBefore, {}));
    await captureQueues(() => advanceLadder(servicesAt(t + WINDOW / 2), owner.id, 'direct'));
    const done = await captureQueues(() => advanceLadder(servicesAt(t + WINDOW), owner.id, 'direct'));
    expect(done.result.confirmed).toHaveLength(1);
    expect((await userRow(owner.id)).death_confirmed_at).not.toBeNull();
    const steps = (await ladderSteps(owner.id)).length;
    // The principal still says "not confirmed": the answer comes from the database, not from it.
    expect(readBefore.user.death_confirmed_at).toBeNull();
    await expect(captureQueues(() => reportDeath(servicesAt(t + WINDOW + HOUR), readBefore, {}))).rejects.toMatchObject({ name: 'AppError', code: 'CONFLICT' });
    expect(await ladderSteps(owner.id)).toHaveLength(steps);
  });

  it('a sandbox key runs the same path marked sandbox: notices to the outbox only, webhook marked, the flag never set', async () => {
    const owner = await signedInUser();
    const hook = await endpointFor(owner, `sandbox-${crypto.randomUUID()}`, { event: 'death_confirmed' });
    const t = Date.now() + DAY;
    const reported = await captureQueues(async () => reportDeath(servicesAt(t), await keyPrincipal(owner.id, true), {}));
    expect(reported.result).toMatchObject({ recorded: 'death_reported', sandbox: true, report: { sandbox: true } });
    const notice = await env.DB.prepare("SELECT * FROM owner_notices WHERE user_id = ? AND kind = 'death_reported'")
      .bind(owner.id)
      .first<Record<string, any>>();
    expect(notice).toMatchObject({ outbox_only: 1 });
    expect(notice!.subject).toMatch(/^\[Sandbox\]/);
    // The owner's real ladder is untouched: a real report can still open beside it.
    expect((await getLadderView(servicesAt(t), await userRow(owner.id))).report).toBeNull();
    await captureQueues(() => advanceLadder(servicesAt(t + WINDOW / 2), owner.id, 'direct'));
    const done = await captureQueues(() => advanceLadder(servicesAt(t + WINDOW), owner.id, 'direct'));
    expect(done.result.confirmed).toHaveLength(1);
    await captureQueues(() => completeDeathConfirmation(servicesAt(t + WINDOW), done.result.confirmed[0]!));
    expect((await userRow(owner.id)).death_confirmed_at).toBeNull();
    const delivery = await env.DB.prepare('SELECT payload FROM webhook_deliveries WHERE webhook_id = ?').bind(hook.id).first<{ payload: string }>();
    expect(JSON.parse(delivery!.payload).data.sandbox).toBe(true);
  });
});
