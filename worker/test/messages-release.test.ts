import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import type { DeliveryResult } from '../src/channels/types';
import type { MissedCheckinsEvent } from '../src/contracts/jobs';
import { checkInAll } from '../src/domains/canary/check-in';
import { deliverMessage } from '../src/domains/messages/delivery/deliver-message';
import { MAX_DELIVERY_ATTEMPTS, RETRY_DELAYS_SECONDS } from '../src/domains/messages/delivery/retry-policy';
import { sendOwnerNotice } from '../src/domains/owner-notices/send-owner-notice';
import { advanceMessage } from '../src/domains/messages/release/advance-message';
import { armOnMissedCheckins } from '../src/domains/messages/release/arm-on-missed-checkins';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor, servicesAt } from './helpers/canary';
import { confirmDeathDirectly } from './helpers/guardian';
import { captureQueues, createMessageFor, messageRow, scriptedChannels, transitionCauses } from './helpers/messages';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

async function pair() {
  const sender = await signedInUser();
  const recipient = await signedInUser();
  return { sender, recipient };
}

function missedEvent(
  canary: { id: string; last_check_in: string; interval_seconds: number },
  userId: string,
  misses: number,
  firedAt: number,
): MissedCheckinsEvent {
  const deadline = Date.parse(canary.last_check_in) + canary.interval_seconds * 1000;
  return {
    type: 'missed_checkins',
    event_id: crypto.randomUUID(),
    user_id: userId,
    canary_id: canary.id,
    misses,
    deadline: new Date(deadline).toISOString(),
    fired_at: new Date(firedAt).toISOString(),
  };
}

const deliverJobs = (jobs: { queue: string; body: Record<string, unknown> }[]) => jobs.filter((j) => j.queue === 'DELIVERIES');
const noticeJobs = (jobs: { queue: string; body: Record<string, unknown> }[]) => jobs.filter((j) => j.body.type === 'owner_notice');

describe('the ReleaseClock Durable Object', () => {
  it('arms its alarm for deliver_at at creation, records it, and a wake before then changes nothing', async () => {
    const { sender, recipient } = await pair();
    const deliverAt = Date.now() + DAY;
    const m = await createMessageFor(sender.token, { recipient_user_id: recipient.id, deliver_at: new Date(deliverAt).toISOString() });
    const stub = env.RELEASE_CLOCK.get(env.RELEASE_CLOCK.idFromName(m.id));
    expect(await runInDurableObject(stub, (_obj, state) => state.storage.getAlarm())).toBe(deliverAt);
    expect((await messageRow(m.id))!.timer_due_at).toBe(deliverAt);
    // An early wake (a retried alarm): still scheduled, re-armed for the same instant.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await messageRow(m.id))!.status).toBe('scheduled');
    expect(await runInDurableObject(stub, (_obj, state) => state.storage.getAlarm())).toBe(deliverAt);
  });

  it('with no rules and no deliver_at, the clock releases the message during create', async () => {
    const { sender, recipient } = await pair();
    const m = await createMessageFor(sender.token, { recipient_user_id: recipient.id });
    expect(['releasing', 'delivered']).toContain((await messageRow(m.id))!.status);
    const stub = env.RELEASE_CLOCK.get(env.RELEASE_CLOCK.idFromName(m.id));
    expect(await runInDurableObject(stub, (_obj, state) => state.storage.getAlarm())).toBeNull();
  });
});

describe('release rules (advanceMessage with a controlled clock)', () => {
  it('a message without rules is released at deliver_at, not a moment before', async () => {
    const { sender, recipient } = await pair();
    const deliverAt = Date.now() + 2 * DAY;
    const m = await createMessageFor(sender.token, { recipient_user_id: recipient.id, deliver_at: new Date(deliverAt).toISOString() });
    const early = await captureQueues(() => advanceMessage(servicesAt(deliverAt - 1), m.id, 'direct'));
    expect(early.result.nextWakeAt?.getTime()).toBe(deliverAt);
    expect((await messageRow(m.id))!.status).toBe('scheduled');
    expect(early.jobs).toEqual([]);

    const due = await captureQueues(() => advanceMessage(servicesAt(deliverAt), m.id, 'direct'));
    expect((await messageRow(m.id))!.status).toBe('releasing');
    expect(deliverJobs(due.jobs)).toHaveLength(1);
    expect(noticeJobs(due.jobs)).toHaveLength(1);
    expect(due.result.nextWakeAt).toBeNull();
    expect(await transitionCauses(m.id)).toEqual(['∅→scheduled:created', 'scheduled→releasing:deliver_at']);

    // The alarm runs again (a retry, a duplicate): nothing more happens.
    const again = await captureQueues(() => advanceMessage(servicesAt(deliverAt + MIN), m.id, 'direct'));
    expect(again.jobs).toEqual([]);
    expect(await transitionCauses(m.id)).toHaveLength(2);
  });

  it('fixed_date arms on its date; a check-in inside the window disarms it; the spent date does not fire again', async () => {
    const { sender, recipient } = await pair();
    const date = new Date(Date.now() + 3 * DAY);
    const day = date.toISOString().slice(0, 10);
    const dueAt = Date.parse(`${day}T00:00:00Z`);
    const m = await createMessageFor(sender.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'fixed_date', trigger_value: day, expire_window: 2 }],
    });
    expect((await captureQueues(() => advanceMessage(servicesAt(dueAt - 1), m.id, 'direct'))).result.nextWakeAt?.getTime()).toBe(dueAt);

    const armed = await captureQueues(() => advanceMessage(servicesAt(dueAt + 5), m.id, 'direct'));
    const row = (await messageRow(m.id))!;
    expect(row.status).toBe('armed');
    expect(row.cancel_deadline).toBe(dueAt + 5 + 2 * DAY);
    expect(armed.result.nextWakeAt?.getTime()).toBe(dueAt + 5 + 2 * DAY);
    expect(deliverJobs(armed.jobs)).toEqual([]);
    expect(noticeJobs(armed.jobs)).toHaveLength(1);

    await captureQueues(() => checkInAll(servicesAt(dueAt + DAY), sender.id, 'web'));
    expect((await messageRow(m.id))!.status).toBe('scheduled');
    const after = await captureQueues(() => advanceMessage(servicesAt(dueAt + 3 * DAY), m.id, 'direct'));
    expect((await messageRow(m.id))!.status).toBe('scheduled');
    expect(after.result.nextWakeAt).toBeNull();
    expect(await transitionCauses(m.id)).toEqual(['∅→scheduled:created', 'scheduled→armed:rule_fired', 'armed→scheduled:check_in']);
  });

  it('an armed message is released when its cancel window ends without a check-in', async () => {
    const { sender, recipient } = await pair();
    const dueAt = Date.now() + DAY;
    const m = await createMessageFor(sender.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'fixed_date', trigger_value: new Date(dueAt).toISOString(), expire_window: 1 }],
    });
    await captureQueues(() => advanceMessage(servicesAt(dueAt), m.id, 'direct'));
    await captureQueues(() => advanceMessage(servicesAt(dueAt + DAY - 1), m.id, 'direct'));
    expect((await messageRow(m.id))!.status).toBe('armed');
    const released = await captureQueues(() => advanceMessage(servicesAt(dueAt + DAY), m.id, 'direct'));
    expect((await messageRow(m.id))!.status).toBe('releasing');
    expect(deliverJobs(released.jobs)).toHaveLength(1);
    expect((await transitionCauses(m.id)).at(-1)).toBe('armed→releasing:window_ended');
  });

  it('missed_checkins(N) arms at the Nth miss; a stale or repeated event changes nothing; a later miss re-arms', async () => {
    const { sender, recipient } = await pair();
    const canary = await createCanaryFor(sender.token, { interval_seconds: 3600 });
    const m = await createMessageFor(sender.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: 2, expire_window: 3 }],
    });
    const t = Date.now() + HOUR;
    const first = missedEvent(canary, sender.id, 1, t);
    await captureQueues(() => armOnMissedCheckins(servicesAt(t), first));
    expect((await messageRow(m.id))!.status).toBe('scheduled');

    const second = missedEvent(canary, sender.id, 2, t + HOUR);
    await captureQueues(() => armOnMissedCheckins(servicesAt(t + HOUR), second));
    let row = (await messageRow(m.id))!;
    expect(row.status).toBe('armed');
    expect(row.cancel_deadline).toBe(t + HOUR + 3 * DAY);
    // Redelivered: the dedupe key and the state both say no.
    await captureQueues(() => armOnMissedCheckins(servicesAt(t + HOUR + 5), second));
    expect((await transitionCauses(m.id)).filter((c) => c.endsWith('rule_fired'))).toHaveLength(1);

    // The sender checks in: disarmed. The old cycle's event, redelivered, is stale.
    const checkInAt = Date.now() + 2 * HOUR;
    await captureQueues(() => checkInAll(servicesAt(checkInAt), sender.id, 'web'));
    expect((await messageRow(m.id))!.status).toBe('scheduled');
    await captureQueues(() => armOnMissedCheckins(servicesAt(checkInAt + MIN), second));
    expect((await messageRow(m.id))!.status).toBe('scheduled');

    // A new run of misses re-arms it.
    const renewed = { ...canary, last_check_in: new Date(checkInAt).toISOString() };
    await captureQueues(() => armOnMissedCheckins(servicesAt(checkInAt + 2 * HOUR), missedEvent(renewed, sender.id, 2, checkInAt + 2 * HOUR)));
    row = (await messageRow(m.id))!;
    expect(row.status).toBe('armed');
    expect(await transitionCauses(m.id)).toEqual([
      '∅→scheduled:created',
      'scheduled→armed:rule_fired',
      'armed→scheduled:check_in',
      'scheduled→armed:rule_fired',
    ]);
  });

  it('a rule firing before deliver_at releases no earlier than deliver_at (window counted from it)', async () => {
    const { sender, recipient } = await pair();
    const canary = await createCanaryFor(sender.token, { interval_seconds: 3600 });
    const deliverAt = Date.now() + 10 * DAY;
    const m = await createMessageFor(sender.token, {
      recipient_user_id: recipient.id,
      deliver_at: new Date(deliverAt).toISOString(),
      rules: [{ trigger_type: 'missed_checkins', trigger_value: 1, expire_window: 1 }],
    });
    const t = Date.now() + HOUR;
    await captureQueues(() => armOnMissedCheckins(servicesAt(t), missedEvent(canary, sender.id, 1, t)));
    expect((await messageRow(m.id))!.cancel_deadline).toBe(deliverAt + DAY);
    await captureQueues(() => advanceMessage(servicesAt(deliverAt + DAY - 1), m.id, 'direct'));
    expect((await messageRow(m.id))!.status).toBe('armed');
    await captureQueues(() => advanceMessage(servicesAt(deliverAt + DAY), m.id, 'direct'));
    expect((await messageRow(m.id))!.status).toBe('releasing');
  });

  it('any rule fires (OR): the date fires although the miss count never came', async () => {
    const { sender, recipient } = await pair();
    const dueAt = Date.now() + 5 * DAY;
    const m = await createMessageFor(sender.token, {
      recipient_user_id: recipient.id,
      rules: [
        { trigger_type: 'missed_checkins', trigger_value: 5 },
        { trigger_type: 'fixed_date', trigger_value: new Date(dueAt).toISOString(), expire_window: 0 },
      ],
    });
    await captureQueues(() => advanceMessage(servicesAt(dueAt), m.id, 'direct'));
    expect((await messageRow(m.id))!.status).toBe('releasing');
    expect(await transitionCauses(m.id)).toEqual(['∅→scheduled:created', 'scheduled→armed:rule_fired', 'armed→releasing:window_ended']);
  });

  it('delay_after_death fires `days` after the death is confirmed, not before', async () => {
    const { sender, recipient } = await pair();
    const m = await createMessageFor(sender.token, { recipient_user_id: recipient.id, rules: [{ trigger_type: 'delay_after_death', trigger_value: 2 }] });
    const before = await captureQueues(() => advanceMessage(servicesAt(Date.now() + 100 * DAY), m.id, 'direct'));
    expect(before.result.nextWakeAt).toBeNull();
    const death = Date.now() + DAY;
    await confirmDeathDirectly(sender.id, death);
    expect((await captureQueues(() => advanceMessage(servicesAt(death + 2 * DAY - 1), m.id, 'direct'))).result.nextWakeAt?.getTime()).toBe(death + 2 * DAY);
    expect((await messageRow(m.id))!.status).toBe('scheduled');
    await captureQueues(() => advanceMessage(servicesAt(death + 2 * DAY), m.id, 'direct'));
    expect((await messageRow(m.id))!.status).toBe('releasing');
  });
});

describe('delivery (the DELIVERIES consumer)', () => {
  async function released(method = 'email') {
    const { sender, recipient } = await pair();
    const deliverAt = Date.now() + DAY;
    const m = await createMessageFor(sender.token, { recipient_user_id: recipient.id, delivery_method: method, deliver_at: new Date(deliverAt).toISOString() });
    const { jobs } = await captureQueues(() => advanceMessage(servicesAt(deliverAt), m.id, 'direct'));
    const deliveryId = deliverJobs(jobs)[0]!.body.delivery_id as string;
    return { sender, recipient, m, deliveryId, at: deliverAt };
  }

  it('delivers once to the outbox, logs it, and a redelivered job sends nothing more', async () => {
    const { recipient, m, deliveryId, at } = await released();
    await captureQueues(() => deliverMessage(servicesAt(at + 1000), deliveryId));
    await captureQueues(() => deliverMessage(servicesAt(at + 2000), deliveryId));
    const { results: outbox } = await env.DB.prepare('SELECT * FROM outbox_messages WHERE idempotency_key = ?')
      .bind(`delivery:${deliveryId}`)
      .all<Record<string, any>>();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ channel: 'email', address: recipient.email, recipient_user_id: recipient.id });
    // The channel carries a notice and the link; the words are read in the app.
    expect(outbox[0]!.text).toContain('left you a message on Afterword');
    expect(outbox[0]!.text).not.toContain('Hello from the past');
    expect(outbox[0]!.link).toContain(`/app/messages/view/${m.id}`);
    expect((await messageRow(m.id))!.status).toBe('delivered');
    const { results: log } = await env.DB.prepare('SELECT channel, success, attempt FROM delivery_log WHERE message_id = ? ORDER BY created_at')
      .bind(m.id)
      .all();
    expect(log).toEqual([
      { channel: 'inbox', success: 1, attempt: 1 },
      { channel: 'email', success: 1, attempt: 1 },
    ]);
  });

  it('retries a retryable failure with backoff, then succeeds', async () => {
    const { m, deliveryId, at } = await released();
    const channels = scriptedChannels([
      { ok: false, retryable: true, error: 'smtp 451 try later' },
      { ok: true, providerId: 'p1' },
    ]);
    const first = await captureQueues(() => deliverMessage(servicesAt(at), deliveryId, channels));
    expect(first.jobs).toEqual([{ queue: 'DELIVERIES', body: { type: 'deliver', delivery_id: deliveryId }, delaySeconds: RETRY_DELAYS_SECONDS[0] }]);
    // A duplicate job before the retry is due does not send; it waits again.
    const early = await captureQueues(() => deliverMessage(servicesAt(at + 1000), deliveryId, channels));
    expect(channels.calls).toHaveLength(1);
    expect(early.jobs[0]?.delaySeconds).toBeGreaterThan(0);
    await captureQueues(() => deliverMessage(servicesAt(at + RETRY_DELAYS_SECONDS[0] * 1000), deliveryId, channels));
    expect(channels.calls).toHaveLength(2);
    expect(channels.calls.map((c) => c.key)).toEqual([`delivery:${deliveryId}`, `delivery:${deliveryId}`]);
    expect((await messageRow(m.id))!.status).toBe('delivered');
  });

  it('after the last retry it fails, over more than an hour, and the owner is told', async () => {
    const { sender, m, deliveryId, at } = await released();
    const channels = scriptedChannels([{ ok: false, retryable: true, error: 'provider down' }]);
    let t = at;
    for (let attempt = 1; attempt <= MAX_DELIVERY_ATTEMPTS; attempt++) {
      const { jobs } = await captureQueues(() => deliverMessage(servicesAt(t), deliveryId, channels));
      if (attempt < MAX_DELIVERY_ATTEMPTS) t += jobs.find((j) => j.queue === 'DELIVERIES')!.delaySeconds! * 1000;
      else expect(noticeJobs(jobs)).toHaveLength(1);
    }
    expect(MAX_DELIVERY_ATTEMPTS).toBeGreaterThanOrEqual(5);
    expect(t - at).toBeGreaterThanOrEqual(HOUR);
    expect(channels.calls).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    expect((await messageRow(m.id))!.status).toBe('failed');
    const logs = await api('GET', `/api/notify/logs/${m.id}`, { token: sender.token });
    expect(logs.data.filter((l: { channel: string }) => l.channel === 'email')).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    // The sender reads a classified sentence, not the adapter's words ('provider down').
    expect(logs.data.at(-1)).toMatchObject({ success: false, error: 'The email provider could not be reached.' });
    const notice = await env.DB.prepare("SELECT kind, status FROM owner_notices WHERE user_id = ? AND kind = 'message_failed'").bind(sender.id).first();
    expect(notice).toEqual({ kind: 'message_failed', status: 'pending' });
  });

  it('a channel the recipient cannot receive fails at once (no verified phone), without retries', async () => {
    const { m, deliveryId, at } = await released('sms');
    const { jobs } = await captureQueues(() => deliverMessage(servicesAt(at), deliveryId));
    expect(deliverJobs(jobs)).toEqual([]);
    expect((await messageRow(m.id))!.status).toBe('failed');
    const row = await env.DB.prepare('SELECT error FROM delivery_log WHERE message_id = ? AND channel = ?').bind(m.id, 'sms').first<{ error: string }>();
    expect(row!.error).toMatch(/no verified phone/);
  });

  describe('what the delivery log says about a failure', () => {
    it('never stores an exception message: a channel that throws is logged as an internal error with a reference', async () => {
      const { m, deliveryId, at } = await released('email');
      const throwing = {
        ...scriptedChannels([{ ok: true }]),
        email: async () => {
          throw new Error('SMTP password hunter2 rejected by 10.0.0.7');
        },
      };
      const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
      await captureQueues(() => deliverMessage(servicesAt(at), deliveryId, throwing));
      const row = await env.DB.prepare("SELECT error FROM delivery_log WHERE message_id = ? AND channel = 'email'").bind(m.id).first<{ error: string }>();
      expect(row!.error).toBe('Internal error while sending. It is retried; the reference is in the server log.');
      // The raw words go to the log only, under the delivery id.
      const line = JSON.parse(String(warned.mock.calls.at(-1)![0]));
      expect(line).toMatchObject({ msg: 'delivery attempt failed', delivery_id: deliveryId });
      expect(line.error).toContain('hunter2');
      warned.mockRestore();
    });

    it.each([
      [{ ok: false, retryable: true, status: 503, error: 'HTTP 503 upstream connect error' }, 'The email provider was unavailable (503).'],
      [{ ok: false, retryable: false, status: 550, error: 'RCPT TO: 550 5.1.1 user unknown at mx.internal' }, 'The email provider refused the delivery (550).'],
      [{ ok: false, retryable: true, error: 'SMTP timed out after 10s during DATA' }, 'The email provider did not answer in time.'],
      [
        { ok: false, retryable: true, reason: 'misconfigured', error: 'email misconfigured: SMTP_HOST is not set' },
        'The email provider is not configured on this server.',
      ],
      [{ ok: false, retryable: false, error: 'invalid recipient address' }, "The recipient's email address is not valid."],
    ] as const)('classifies %j as %s', async (result, sentence) => {
      const { m, deliveryId, at } = await released('email');
      await captureQueues(() => deliverMessage(servicesAt(at), deliveryId, scriptedChannels([result as DeliveryResult])));
      const row = await env.DB.prepare("SELECT error FROM delivery_log WHERE message_id = ? AND channel = 'email'").bind(m.id).first<{ error: string }>();
      expect(row!.error).toBe(sentence);
    });
  });
});

describe('owner notices', () => {
  it('quiet hours delay a notice (not the release) and it goes out when they end', async () => {
    const { sender, recipient } = await pair();
    await api('POST', '/api/notify/preferences', {
      token: sender.token,
      json: { methods: ['email'], quiet_hours: { start: '22:00', end: '07:00' }, alerts: { vaults: true, messages: true, canary_events: true } },
    });
    // 23:30 UTC on some day after now; the sender's zone is UTC.
    const day = new Date(Date.now() + 2 * DAY).toISOString().slice(0, 10);
    const night = Date.parse(`${day}T23:30:00Z`);
    const m = await createMessageFor(sender.token, { recipient_user_id: recipient.id, deliver_at: new Date(night).toISOString() });
    const release = await captureQueues(() => advanceMessage(servicesAt(night), m.id, 'direct'));
    expect((await messageRow(m.id))!.status).toBe('releasing');
    expect(deliverJobs(release.jobs)).toHaveLength(1);
    const noticeId = noticeJobs(release.jobs)[0]!.body.notice_id as string;

    const quiet = await captureQueues(() => sendOwnerNotice(servicesAt(night), noticeId));
    expect(quiet.result).toBe('delayed');
    expect(quiet.jobs[0]!.delaySeconds).toBe(7.5 * 3600);
    expect((await captureQueues(() => sendOwnerNotice(servicesAt(night + HOUR), noticeId))).result).toBe('none');

    const morning = night + 7.5 * HOUR;
    expect((await captureQueues(() => sendOwnerNotice(servicesAt(morning), noticeId))).result).toBe('sent');
    const sent = await env.DB.prepare('SELECT address, recipient_user_id, subject FROM outbox_messages WHERE idempotency_key = ?')
      .bind(`notice:${noticeId}:email`)
      .first();
    expect(sent).toEqual({ address: sender.email, recipient_user_id: sender.id, subject: expect.stringContaining('was released') });
    expect((await captureQueues(() => sendOwnerNotice(servicesAt(morning + 1), noticeId))).result).toBe('none');
  });

  it('an alert switched off is skipped', async () => {
    const { sender, recipient } = await pair();
    await api('POST', '/api/notify/preferences', {
      token: sender.token,
      json: { methods: ['email'], quiet_hours: { start: '00:00', end: '00:00' }, alerts: { vaults: true, messages: false, canary_events: true } },
    });
    const at = Date.now() + DAY;
    const m = await createMessageFor(sender.token, { recipient_user_id: recipient.id, deliver_at: new Date(at).toISOString() });
    const { jobs } = await captureQueues(() => advanceMessage(servicesAt(at), m.id, 'direct'));
    expect(await sendOwnerNotice(servicesAt(at), noticeJobs(jobs)[0]!.body.notice_id as string)).toBe('skipped');
  });
});

describe('erasure', () => {
  it('deleting an account removes its messages and their recordings in R2', async () => {
    const { deleteAccount } = await import('../src/domains/account/delete-account');
    const { sender, recipient } = await pair();
    const webm = btoa(String.fromCharCode(0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4));
    const m = await createMessageFor(sender.token, {
      recipient_user_id: recipient.id,
      deliver_at: new Date(Date.now() + DAY).toISOString(),
      audio_base64: webm,
    });
    expect(await env.BLOBS.head(`messages/${m.id}/audio`)).not.toBeNull();
    await deleteAccount(servicesAt(Date.now()), sender.id);
    expect(await messageRow(m.id)).toBeNull();
    expect(await env.BLOBS.head(`messages/${m.id}/audio`)).toBeNull();
  });

  it('deleting an account removes its local mailbox and leaves other accounts’ mail', async () => {
    const { deleteAccount } = await import('../src/domains/account/delete-account');
    const { deliverToOutbox } = await import('../src/channels/outbox');
    const { sender, recipient } = await pair();
    const ctx = servicesAt(Date.now());
    await deliverToOutbox(ctx, 'email', sender.email, { idempotencyKey: `erase:${sender.id}`, recipientUserId: sender.id, subject: 'Mine', text: 'x' });
    await deliverToOutbox(ctx, 'email', recipient.email, {
      idempotencyKey: `erase:${recipient.id}`,
      recipientUserId: recipient.id,
      subject: 'Theirs',
      text: 'x',
    });
    await deleteAccount(ctx, sender.id);
    const mailOf = async (id: string) =>
      (await env.DB.prepare('SELECT count(*) AS n FROM outbox_messages WHERE recipient_user_id = ?').bind(id).first<{ n: number }>())!.n;
    expect({ sender: await mailOf(sender.id), recipient: await mailOf(recipient.id) }).toEqual({ sender: 0, recipient: 1 });
  });
});

describe('storage quota', () => {
  it('a recording that would pass the plan’s storage is refused with 403 and nothing is stored', async () => {
    const { sender, recipient } = await pair();
    // A free plan's 1 GB, used up by an earlier (recorded) message.
    await createMessageFor(sender.token, { recipient_user_id: recipient.id, deliver_at: new Date(Date.now() + DAY).toISOString() });
    await env.DB.prepare('UPDATE messages SET audio_bytes = ? WHERE sender_id = ?').bind(1e9, sender.id).run();
    const webm = btoa(String.fromCharCode(0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4));
    const res = await api('POST', '/api/message/create', {
      token: sender.token,
      json: { recipient_user_id: recipient.id, content: 'x', delivery_method: 'email', consent: true, audio_base64: webm },
    });
    expect(res.status).toBe(403);
    expect(res.data.detail).toMatch(/Storage quota exceeded/);
    const { results } = await env.DB.prepare('SELECT id FROM messages WHERE sender_id = ?').bind(sender.id).all();
    expect(results).toHaveLength(1);
  });
});
