import { env, runInDurableObject } from 'cloudflare:test';
import { clockOf } from '../src/domains/canary/canary-timer';
import { describe, expect, inject, it } from 'vitest';
import type { CanaryNoticeJob } from '../src/contracts/jobs';
import { advanceCanary } from '../src/domains/canary/advance-canary';
import { sendCanaryNotice } from '../src/domains/owner-notices/canary-notices';
import { sendOwnerNotice } from '../src/domains/owner-notices/send-owner-notice';
import { saveNotifyPreferences } from '../src/domains/notify/preferences';
import { DEFAULT_NOTIFY_PREFERENCES } from '../src/contracts/notify';
import type { Bindings } from '../src/env';
import { createServiceContext } from '../src/wiring/service-context';
import { api, signedInUser } from './helpers/api';
import { captureJobs, createCanaryFor, missedEvents, servicesAt, transitionsOf } from './helpers/canary';
import { createMessageFor } from './helpers/messages';
import type { ReceivedMessage } from './peers/smtp';
import type { RecordedTwilioRequest } from './peers/twilio';

/**
 * The owner's warnings on real channels: the production SMTP adapter against the SMTP peer and the
 * production Twilio adapter against the Twilio peer (test/peers/). A warning is delivered when a channel
 * accepted it; none delivered means no miss counts.
 */
const smtp = inject('smtpPeer');
const twilio = inject('twilioPeer');
const HOUR = 3600_000;
const GRACE = 0.2 * HOUR;

const hex = (n: number) => [...crypto.getRandomValues(new Uint8Array(n))].map((b) => b.toString(16).padStart(2, '0')).join('');

/** A Twilio account of its own on the peer, and the Worker's environment with email over SMTP and SMS over Twilio. */
async function realChannels(opts: { smtpWorks: boolean }) {
  const sid = `AC${hex(16)}`;
  const token = `tok${hex(16)}`;
  expect((await fetch(`${twilio.baseUrl}/__accounts`, { method: 'POST', body: JSON.stringify({ sid, authToken: token }) })).status).toBe(201);
  const channelEnv: Bindings = {
    ...env,
    EMAIL_TRANSPORT: 'smtp',
    SMTP_HOST: smtp.host,
    SMTP_PORT: String(opts.smtpWorks ? smtp.port : smtp.refusedPort),
    SMTP_SECURE: 'none',
    SMTP_USER: smtp.user,
    SMTP_PASSWORD: smtp.password,
    EMAIL_FROM: 'Afterword <no-reply@afterword.test>',
    SMS_TRANSPORT: 'twilio',
    TWILIO_ACCOUNT_SID: sid,
    TWILIO_AUTH_TOKEN: token,
    TWILIO_FROM: '+15005550006',
    TWILIO_API_BASE: twilio.baseUrl,
  } as Bindings;
  return {
    at: (ms: number) => createServiceContext(channelEnv, () => new Date(ms)),
    withSmtp: (works: boolean) => ({ ...channelEnv, SMTP_PORT: String(works ? smtp.port : smtp.refusedPort) }) as Bindings,
    async smsSent() {
      const res = await fetch(`${twilio.baseUrl}/__requests?account=${sid}`);
      return ((await res.json()) as RecordedTwilioRequest[]).filter((r) => r.form.Body && r.answered >= 200 && r.answered < 300);
    },
    async smsFails() {
      expect((await fetch(`${twilio.baseUrl}/__behave?account=${sid}`, { method: 'POST', body: JSON.stringify({ mode: 'server_error' }) })).status).toBe(200);
    },
  };
}

async function emailsTo(address: string): Promise<ReceivedMessage[]> {
  return (await (await fetch(`${smtp.control}/messages?to=${encodeURIComponent(address.toLowerCase())}`)).json()) as ReceivedMessage[];
}

/**
 * An owner who chose email alone, with a verified phone and no quiet hours, a one-hour canary and a
 * message to a recipient that a missed check-in releases: a warning is a safety notice for them.
 */
async function ownerWithSomethingAtStake() {
  const owner = await signedInUser();
  const recipient = await signedInUser();
  await env.DB.prepare('UPDATE users SET phone_e164 = ?, phone_verified_at = ? WHERE id = ?').bind('+14155550142', Date.now(), owner.id).run();
  await saveNotifyPreferences(servicesAt(Date.now()), owner.id, {
    ...DEFAULT_NOTIFY_PREFERENCES,
    methods: ['email'],
    quiet_hours: { start: '00:00', end: '00:00' },
  });
  const canary = await createCanaryFor(owner.token, { interval_seconds: 3600, name: 'Daily' });
  await createMessageFor(owner.token, { recipient_user_id: recipient.id, rules: [{ trigger_type: 'missed_checkins', trigger_value: 1, expire_window: 0 }] });
  const start = Date.parse(canary.last_check_in);
  return { owner, canary, start, graceStart: start + 0.8 * HOUR, deadline: start + HOUR };
}

async function reminderJob(canaryId: string, at: number) {
  const { sent } = await captureJobs(() => advanceCanary(servicesAt(at), canaryId, 'alarm'));
  const job = sent.find((j) => (j as CanaryNoticeJob).type === 'canary_notice') as CanaryNoticeJob | undefined;
  expect(job?.kind).toBe('grace_reminder');
  return job!;
}

async function attemptsOf(noticeId: string) {
  const { results } = await env.DB.prepare('SELECT channel, address, ok FROM owner_notice_deliveries WHERE notice_id = ? ORDER BY at, id')
    .bind(noticeId)
    .all<{ channel: string; address: string; ok: number }>();
  return results.map((r) => `${r.channel} ${r.address} ${r.ok ? 'accepted' : 'failed'}`);
}

describe("the owner's warnings on their channels", () => {
  it('reaches the owner by email through the SMTP server, and the canary records where and when', async () => {
    const { owner, canary, graceStart } = await ownerWithSomethingAtStake();
    const channels = await realChannels({ smtpWorks: true });
    const job = await reminderJob(canary.id, graceStart);
    expect(await sendCanaryNotice(channels.at(graceStart + 1500), job)).toBe('sent');

    const [mail] = await emailsTo(owner.email);
    expect(mail?.subject).toMatch(/^Check in before .*: "Daily"$/);
    expect(mail?.text).toContain('Your canary "Daily" is in its grace period');
    expect(mail?.text).toContain('1 message of yours waits for a rule');
    expect(mail?.text).toMatch(/Check in with one tap: https?:\/\/\S+\/check-in\/[A-Za-z0-9_-]{78}/);
    expect(await attemptsOf(job.transition_id)).toEqual([`email ${owner.email[0]}•••@${owner.email.split('@')[1]} accepted`]);
    expect((await transitionsOf(canary.id)).find((t) => t.kind === 'grace_reminder')?.delivered_at).toBe(graceStart + 1500);
  });

  it('when the SMTP server refuses, the verified phone carries the warning by SMS', async () => {
    const { canary, graceStart, deadline } = await ownerWithSomethingAtStake();
    const channels = await realChannels({ smtpWorks: false });
    const job = await reminderJob(canary.id, graceStart);
    expect(await sendCanaryNotice(channels.at(graceStart), job)).toBe('sent');

    const sms = await channels.smsSent();
    expect(sms).toHaveLength(1);
    expect(sms[0]!.form.To).toEqual(['+14155550142']);
    expect(sms[0]!.form.Body![0]).toContain('Check in before');
    expect(await attemptsOf(job.transition_id)).toEqual([expect.stringMatching(/^email .* failed$/), 'sms •••• 0142 accepted']);
    // Warned in time by SMS: the miss counts at the deadline.
    const atDeadline = await captureJobs(() => advanceCanary(servicesAt(deadline), canary.id, 'alarm'));
    expect(missedEvents(atDeadline.sent, canary.id)).toEqual([expect.objectContaining({ misses: 1 })]);
  });

  it('when every channel fails, no miss counts; once one works again the misses count a grace period after it reached the owner', async () => {
    const { owner, canary, graceStart, deadline } = await ownerWithSomethingAtStake();
    const channels = await realChannels({ smtpWorks: false });
    await channels.smsFails();
    const job = await reminderJob(canary.id, graceStart);
    expect(await sendCanaryNotice(channels.at(graceStart), job)).toBe('undelivered');
    expect(await attemptsOf(job.transition_id)).toEqual([expect.stringMatching(/^email .* failed$/), 'sms •••• 0142 failed']);
    const notice = await env.DB.prepare('SELECT status, attempts, due_at FROM owner_notices WHERE id = ?').bind(job.transition_id).first();
    expect(notice).toEqual({ status: 'pending', attempts: 1, due_at: graceStart + 60_000 });

    // The deadline passes with no warning delivered: re-warned, and still nothing counts hours later.
    const atDeadline = await captureJobs(() => advanceCanary(servicesAt(deadline), canary.id, 'alarm'));
    const rewarn = atDeadline.sent.find((j) => (j as CanaryNoticeJob).kind === 'late_rewarn') as CanaryNoticeJob;
    expect(rewarn).toBeDefined();
    expect(await sendCanaryNotice(channels.at(deadline), rewarn)).toBe('undelivered');
    for (const at of [deadline + HOUR, deadline + 3 * HOUR]) {
      expect(missedEvents((await captureJobs(() => advanceCanary(servicesAt(at), canary.id, 'alarm'))).sent, canary.id)).toEqual([]);
    }

    // The mail server is back: the next try of the re-warning (the reconciler re-sends it) reaches the owner.
    const back = deadline + 3 * HOUR + 60_000;
    expect(
      await sendOwnerNotice(
        createServiceContext(channels.withSmtp(true), () => new Date(back)),
        rewarn.transition_id,
      ),
    ).toBe('sent');
    expect((await emailsTo(owner.email)).map((m) => m.subject)).toEqual(['Your canary "Daily" passed its deadline — check in']);
    expect((await transitionsOf(canary.id)).filter((t) => t.kind === 'missed').map((t) => t.counts_from)).toEqual([
      back + GRACE,
      back + GRACE,
      back + GRACE,
      back + GRACE,
    ]);
    expect(missedEvents((await captureJobs(() => advanceCanary(servicesAt(back + GRACE - 1), canary.id, 'alarm'))).sent, canary.id)).toEqual([]);
    const counted = await captureJobs(() => advanceCanary(servicesAt(back + GRACE), canary.id, 'alarm'));
    expect(missedEvents(counted.sent, canary.id).map((e) => (e as unknown as { misses: number }).misses)).toEqual([1, 2, 3, 4]);
  });

  it('through an outage of eight hours a warning is tried at most half an hour apart, so it reaches the owner within half an hour of their mail’s return', async () => {
    const { owner, canary, graceStart } = await ownerWithSomethingAtStake();
    const channels = await realChannels({ smtpWorks: false });
    await channels.smsFails();
    const job = await reminderJob(canary.id, graceStart);
    const back = graceStart + 8 * HOUR;
    const dueAt = async () =>
      (await env.DB.prepare('SELECT due_at FROM owner_notices WHERE id = ?').bind(job.transition_id).first<{ due_at: number }>())!.due_at;
    // Each try at the notice's own due time, as the reconciler re-sends it, until the mail server is back.
    const tries: number[] = [];
    for (let at = graceStart; at < back; at = await dueAt()) {
      expect(await sendCanaryNotice(channels.at(at), job)).toBe('undelivered');
      tries.push(at);
    }
    const gaps = tries.slice(1).map((t, i) => (t - tries[i]!) / 60_000);
    expect(gaps.slice(0, 6)).toEqual([1, 2, 4, 8, 16, 30]);
    expect(Math.max(...gaps)).toBe(30);

    const next = await dueAt();
    expect(next - back).toBeLessThanOrEqual(30 * 60_000);
    expect(
      await sendOwnerNotice(
        createServiceContext(channels.withSmtp(true), () => new Date(next)),
        job.transition_id,
      ),
    ).toBe('sent');
    expect((await emailsTo(owner.email)).map((m) => m.subject)).toEqual([expect.stringMatching(/^Check in before /)]);
    expect((await transitionsOf(canary.id)).find((t) => t.kind === 'grace_reminder')?.delivered_at).toBe(next);
  });

  it('with canary alerts off and nothing at stake, the activity feed is warning enough: the misses still count (webhooks, the owner’s own monitoring)', async () => {
    const owner = await signedInUser();
    await saveNotifyPreferences(servicesAt(Date.now()), owner.id, {
      ...DEFAULT_NOTIFY_PREFERENCES,
      quiet_hours: { start: '00:00', end: '00:00' },
      alerts: { ...DEFAULT_NOTIFY_PREFERENCES.alerts, canary_events: false },
    });
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const start = Date.parse(canary.last_check_in);
    const job = await reminderJob(canary.id, start + 0.8 * HOUR);
    expect(await sendCanaryNotice(servicesAt(start + 0.8 * HOUR), job)).toBe('skipped');
    expect(await attemptsOf(job.transition_id)).toEqual(['in_app Activity feed accepted']);
    const atDeadline = await captureJobs(() => advanceCanary(servicesAt(start + HOUR), canary.id, 'alarm'));
    expect(missedEvents(atDeadline.sent, canary.id)).toHaveLength(1);
  });

  it('a warning whose report to its canary was lost is reported again when its job comes back (sent or recorded in the feed)', async () => {
    for (const muted of [false, true]) {
      const owner = await signedInUser();
      await saveNotifyPreferences(servicesAt(Date.now()), owner.id, {
        ...DEFAULT_NOTIFY_PREFERENCES,
        quiet_hours: { start: '00:00', end: '00:00' },
        alerts: { ...DEFAULT_NOTIFY_PREFERENCES.alerts, canary_events: !muted },
      });
      const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
      const graceStart = Date.parse(canary.last_check_in) + 0.8 * HOUR;
      const job = await reminderJob(canary.id, graceStart);
      expect(await sendCanaryNotice(servicesAt(graceStart), job)).toBe(muted ? 'skipped' : 'sent');
      // The object lost the report (as if the call had failed after the notice was marked).
      await runInDurableObject(clockOf(env, canary.id), (_, state) => {
        state.storage.sql.exec('UPDATE transitions SET delivered_at = NULL, delivery_status = ? WHERE id = ?', 'pending', job.transition_id);
      });
      // The object sends the warning again; its notice is not sent twice, and the canary hears of it.
      expect(await sendCanaryNotice(servicesAt(graceStart + 60_000), job)).toBe('none');
      const held = await runInDurableObject(clockOf(env, canary.id), (_, state) =>
        state.storage.sql.exec<{ delivered_at: number | null }>('SELECT delivered_at FROM transitions WHERE id = ?', job.transition_id).one(),
      );
      expect(held.delivered_at, muted ? 'muted' : 'sent').toBe(graceStart);
    }
  });

  it('with canary alerts off, a warning still comes while a message would be released by the miss', async () => {
    const { owner, canary, graceStart } = await ownerWithSomethingAtStake();
    await saveNotifyPreferences(servicesAt(Date.now()), owner.id, {
      ...DEFAULT_NOTIFY_PREFERENCES,
      methods: ['email'],
      quiet_hours: { start: '00:00', end: '00:00' },
      alerts: { vaults: false, messages: false, canary_events: false },
    });
    const job = await reminderJob(canary.id, graceStart);
    expect(await sendCanaryNotice(servicesAt(graceStart), job)).toBe('sent');
    const outbox = await api('GET', '/api/outbox', { token: owner.token });
    expect(outbox.data.messages.some((m: { subject: string }) => /^Check in before .*"Daily"$/.test(m.subject))).toBe(true);
  });
});
