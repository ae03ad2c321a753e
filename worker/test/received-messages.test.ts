import { describe, expect, it } from 'vitest';
import type { MissedCheckinsEvent } from '../src/contracts/jobs';
import { advanceMessage } from '../src/domains/messages/release/advance-message';
import { armOnMissedCheckins } from '../src/domains/messages/release/arm-on-missed-checkins';
import { releaseReasonOf } from '../src/domains/messages/received-messages';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor, servicesAt } from './helpers/canary';
import { captureQueues, createMessageFor, messageRow } from './helpers/messages';

const HOUR = 3_600_000;
const RECEIVED_KEYS = ['audio_type', 'content', 'content_encrypted', 'has_audio', 'id', 'read_at', 'release_reason', 'released_at', 'sender', 'use_e2ee'];

async function personas() {
  const [owner, recipient, outsider] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
  return { owner, recipient, outsider };
}

/** The owner's canary missed `misses` check-ins in a row, as the canary engine reports it. */
function missed(canary: { id: string; last_check_in: string; interval_seconds: number }, userId: string, misses: number, at: number): MissedCheckinsEvent {
  return {
    type: 'missed_checkins',
    event_id: crypto.randomUUID(),
    user_id: userId,
    canary_id: canary.id,
    misses,
    deadline: new Date(Date.parse(canary.last_check_in) + canary.interval_seconds * 1000).toISOString(),
    fired_at: new Date(at).toISOString(),
  };
}

/** A message from `owner` to `recipient`, released now by its sender. */
async function releasedByHand(owner: { token: string }, recipientId: string, content = 'Released by hand') {
  const m = await createMessageFor(owner.token, { recipient_user_id: recipientId, content, deliver_at: '2099-01-01' });
  expect((await api('POST', `/api/messages/deliver/${m.id}`, { token: owner.token })).status).toBe(200);
  return m.id;
}

describe("the recipient's copy of a message", () => {
  it('says who it is from, when and why it was released — and carries none of the sender’s delivery internals', async () => {
    const { owner, recipient, outsider } = await personas();
    expect((await api('PATCH', '/api/profile', { token: owner.token, json: { display_name: 'Ann' } })).status).toBe(200);
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const m = await createMessageFor(owner.token, {
      recipient_user_id: recipient.id,
      content: 'For Bob, when I am gone',
      rules: [{ trigger_type: 'missed_checkins', trigger_value: 3 }],
    });
    const t = Date.now() + 3 * HOUR;
    await captureQueues(() => armOnMissedCheckins(servicesAt(t), missed(canary, owner.id, 3, t)));
    await captureQueues(() => advanceMessage(servicesAt(t), m.id, 'direct'));
    expect((await messageRow(m.id))!.status).toBe('releasing');

    const res = await api('GET', `/api/message/${m.id}`, { token: recipient.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.data).sort()).toEqual(['message', 'role']);
    expect(res.data.role).toBe('recipient');
    expect(Object.keys(res.data.message).sort()).toEqual(RECEIVED_KEYS);
    expect(res.data.message).toMatchObject({
      id: m.id,
      sender: { id: owner.id, email: owner.email, name: 'Ann' },
      content: 'For Bob, when I am gone',
      released_at: new Date(t).toISOString(),
      read_at: null,
      release_reason: { kind: 'missed_checkins', count: 3 },
    });
    // Nothing of how it travelled or what the sender set up: no log, states, rules or channel anywhere.
    const body = JSON.stringify(res.data);
    for (const internal of ['delivery_method', 'status', 'rules', 'log', 'transitions', 'deliver_at', 'cancel_deadline', 'armed_at', 'releasing']) {
      expect(body).not.toContain(`"${internal}"`);
    }
    // Its delivery log is the sender's alone.
    expect((await api('GET', `/api/notify/logs/${m.id}`, { token: recipient.token })).status).toBe(404);
    expect((await api('GET', `/api/notify/logs/${m.id}`, { token: owner.token })).status).toBe(200);
    // The Inbox lists the same copy.
    const inbox = await api('GET', '/api/message/inbox', { token: recipient.token });
    expect(inbox.data).toEqual([res.data.message]);
    // The sender still sees the full record.
    expect((await api('GET', `/api/message/${m.id}`, { token: owner.token })).data).toMatchObject({ role: 'sender', log: expect.any(Array) });
    // An outsider sees nothing at all.
    for (const [method, path] of [
      ['GET', `/api/message/${m.id}`],
      ['POST', `/api/message/${m.id}/read`],
      ['GET', `/api/notify/logs/${m.id}`],
    ] as const) {
      expect((await api(method, path, { token: outsider.token })).status, `${method} ${path}`).toBe(404);
    }
    expect((await api('GET', '/api/message/inbox', { token: outsider.token })).data).toEqual([]);
  });

  it('names the sender by display name when set, else null beside the email', async () => {
    const { owner, recipient } = await personas();
    const id = await releasedByHand(owner, recipient.id);
    const { data } = await api('GET', `/api/message/${id}`, { token: recipient.token });
    expect(data.message.sender).toEqual({ id: owner.id, email: owner.email, name: null });
    expect(data.message.release_reason).toEqual({ kind: 'by_sender', count: null });
  });

  it('reads the reason from the release transition: by hand, at its time, or the rule that fired last', () => {
    const rules = [
      { trigger_type: 'fixed_date' as const, trigger_value: '2030-01-01', expire_window: null, fired_at: 1 },
      { trigger_type: 'delay_after_death' as const, trigger_value: '7', expire_window: 2, fired_at: 5 },
    ];
    expect(releaseReasonOf({ rules }, 'manual')).toEqual({ kind: 'by_sender', count: null });
    expect(releaseReasonOf({ rules: [] }, 'deliver_at')).toEqual({ kind: 'deliver_at', count: null });
    expect(releaseReasonOf({ rules }, 'window_ended')).toEqual({ kind: 'delay_after_death', count: 7 });
    expect(releaseReasonOf({ rules: [rules[0]!] }, 'window_ended')).toEqual({ kind: 'fixed_date', count: null });
  });
});

describe("the Inbox's read marker", () => {
  it('counts released, unopened messages; opening one marks it read once and drops the count', async () => {
    const { owner, recipient, outsider } = await personas();
    const held = await createMessageFor(owner.token, { recipient_user_id: recipient.id, deliver_at: '2099-01-01' });
    const count = async () => (await api('GET', '/api/message/unread-count', { token: recipient.token })).data;
    expect(await count()).toEqual({ unread: 0 });
    // Not released yet: not countable, not markable.
    expect((await api('POST', `/api/message/${held.id}/read`, { token: recipient.token })).status).toBe(404);

    const first = await releasedByHand(owner, recipient.id, 'one');
    const second = await releasedByHand(owner, recipient.id, 'two');
    expect(await count()).toEqual({ unread: 2 });

    const read = await api('POST', `/api/message/${first}/read`, { token: recipient.token });
    expect(read.status).toBe(200);
    expect(Date.parse(read.data.read_at)).toBeGreaterThan(0);
    expect(await count()).toEqual({ unread: 1 });
    // Opening it again keeps the first time.
    expect((await api('POST', `/api/message/${first}/read`, { token: recipient.token })).data.read_at).toBe(read.data.read_at);
    expect(await count()).toEqual({ unread: 1 });

    // Only its recipient can mark it: the sender and an outsider get 404 and change nothing.
    expect((await api('POST', `/api/message/${second}/read`, { token: owner.token })).status).toBe(404);
    expect((await api('POST', `/api/message/${second}/read`, { token: outsider.token })).status).toBe(404);
    expect(await count()).toEqual({ unread: 1 });
    const inbox = (await api('GET', '/api/message/inbox', { token: recipient.token })).data as { id: string; read_at: string | null }[];
    expect(Object.fromEntries(inbox.map((m) => [m.id, m.read_at !== null]))).toEqual({ [first]: true, [second]: false });
    // The sender's own count is about messages left for them: none.
    expect((await api('GET', '/api/message/unread-count', { token: owner.token })).data).toEqual({ unread: 0 });
  });
});
