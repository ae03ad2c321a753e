import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { deliverToOutbox } from '../src/channels/outbox';
import { createServiceContext } from '../src/wiring/service-context';
import { deliverMessage } from '../src/domains/messages/delivery/deliver-message';
import { sendOwnerNotice } from '../src/domains/owner-notices/send-owner-notice';
import { advanceMessage } from '../src/domains/messages/release/advance-message';
import { callerAs } from './helpers/trpc';
import { api, signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';
import { captureQueues, createMessageFor } from './helpers/messages';

const production = { ...env, APP_ENV: 'production' } as unknown as typeof env;

/** The real app as deployed to production: same database, APP_ENV=production. */
async function productionApi(method: string, path: string, token?: string) {
  const headers = token ? { authorization: `Bearer ${token}` } : undefined;
  const res = await createApp().request(path, { method, headers }, production);
  return { status: res.status, data: (await res.json()) as any };
}

const sample = (key: string, recipientUserId: string | null) => ({
  idempotencyKey: key,
  recipientUserId,
  subject: `Subject ${key}`,
  text: 'Body',
  link: 'http://127.0.0.1:8787/app/inbox',
});

/** What `user` reads on their Outbox page: the whole answer, as text too (a secret must not appear anywhere in it). */
async function outboxOf(user: { token: string }) {
  const res = await api('GET', '/api/outbox?limit=500', { token: user.token });
  expect(res.status).toBe(200);
  return { keys: (res.data.messages as { idempotency_key: string }[]).map((m) => m.idempotency_key), text: res.text, messages: res.data.messages as any[] };
}

describe('GET /api/outbox: each account reads its own local mailbox', () => {
  it('lists the deliveries addressed to the caller, newest first, and nobody else’s', async () => {
    const owner = await signedInUser();
    const recipient = await signedInUser();
    const t0 = Date.now() + 60_000;
    await deliverToOutbox(servicesAt(t0), 'email', owner.email, sample('route:1', owner.id));
    await deliverToOutbox(servicesAt(t0 + 1000), 'sms', '+14155550100', sample('route:2', owner.id));
    await deliverToOutbox(servicesAt(t0 + 2000), 'email', recipient.email, sample('route:3', recipient.id));
    const res = await api('GET', '/api/outbox', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.data.enabled).toBe(true);
    expect(res.data.messages).toEqual([
      expect.objectContaining({
        channel: 'sms',
        address: '+14155550100',
        subject: 'Subject route:2',
        recipient_user_id: owner.id,
        created_at: new Date(t0 + 1000).toISOString(),
      }),
      expect.objectContaining({ channel: 'email', address: owner.email, subject: 'Subject route:1', link: 'http://127.0.0.1:8787/app/inbox' }),
    ]);
    const one = await api('GET', '/api/outbox?limit=1', { token: owner.token });
    expect(one.data.messages).toHaveLength(1);
    expect(one.data.messages[0].subject).toBe('Subject route:2');
    expect((await outboxOf(recipient)).keys).toEqual(['route:3']);
  });

  it('does not hand an outsider the reset link they asked for on the owner’s behalf; the owner reads it', async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    // The takeover this closes: ask for a reset of the owner's account, read the link from the outbox, set a password.
    const asked = await api('POST', '/api/auth/password-reset/request', { json: { email: owner.email }, headers: { 'cf-connecting-ip': '198.18.0.7' } });
    expect(asked.status).toBe(202);
    const { results } = await env.DB.prepare("SELECT link FROM outbox_messages WHERE idempotency_key LIKE 'password-reset:%' AND address = ?")
      .bind(owner.email)
      .all<{ link: string }>();
    expect(results).toHaveLength(1);
    const link = results[0]!.link;
    const token = new URL(link).searchParams.get('token')!;

    const seen = await outboxOf(outsider);
    expect(seen.messages).toEqual([]);
    expect(seen.text).not.toContain(token);

    const mine = await outboxOf(owner);
    expect(mine.messages).toEqual([expect.objectContaining({ channel: 'email', address: owner.email, subject: 'Reset your Afterword password', link })]);
    expect((await api('POST', '/api/auth/password-reset/inspect', { json: { token } })).data).toMatchObject({ email: owner.email });
  });

  it('shows a released message to its recipient and the release notice to its owner; an outsider sees neither', async () => {
    const owner = await signedInUser();
    const recipient = await signedInUser();
    const outsider = await signedInUser();
    const noQuietHours = { methods: ['email'], quiet_hours: { start: '00:00', end: '00:00' }, alerts: { vaults: true, messages: true, canary_events: true } };
    expect((await api('POST', '/api/notify/preferences', { token: owner.token, json: noQuietHours })).status).toBe(200);
    const at = Date.now() + 24 * 3600_000;
    const m = await createMessageFor(owner.token, { recipient_user_id: recipient.id, delivery_method: 'email', deliver_at: new Date(at).toISOString() });
    const { jobs } = await captureQueues(() => advanceMessage(servicesAt(at), m.id, 'direct'));
    const deliveryId = jobs.find((j) => j.queue === 'DELIVERIES')!.body.delivery_id as string;
    const noticeId = jobs.find((j) => j.body.type === 'owner_notice')!.body.notice_id as string;
    await captureQueues(() => deliverMessage(servicesAt(at + 1000), deliveryId));
    expect((await captureQueues(() => sendOwnerNotice(servicesAt(at + 2000), noticeId))).result).toBe('sent');

    const delivery = `delivery:${deliveryId}`;
    const notice = `notice:${noticeId}:email`;
    expect((await outboxOf(recipient)).keys).toEqual([delivery]);
    expect((await outboxOf(owner)).keys).toEqual([notice]);
    const seen = await outboxOf(outsider);
    expect(seen.keys).toEqual([]);
    expect(seen.text).not.toContain('Hello from the past');
  });

  it('shows a phone code to the account that asked for it, and to no one else', async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    expect((await api('POST', '/api/profile/phone', { token: owner.token, json: { phone: '+14155550123' } })).status).toBe(200);
    const [sms, ...more] = (await outboxOf(owner)).messages;
    expect(more).toEqual([]);
    expect(sms).toMatchObject({ channel: 'sms', address: '+14155550123', subject: 'Afterword verification code' });
    expect((await outboxOf(outsider)).keys).toEqual([]);
  });

  it('keeps a delivery with no known recipient out of every mailbox', async () => {
    const owner = await signedInUser();
    await deliverToOutbox(createServiceContext(env), 'email', owner.email, sample('route:nobody', null));
    expect((await outboxOf(owner)).keys).not.toContain('route:nobody');
  });

  it.each(['0', '-1', '501', 'ten', '1.5', ''])('refuses limit=%s with 422', async (limit) => {
    const owner = await signedInUser();
    const res = await api('GET', `/api/outbox?limit=${limit}`, { token: owner.token });
    expect(res.status).toBe(422);
    expect(res.data.detail[0].loc).toEqual(['query', 'limit']);
  });

  it('needs a session', async () => {
    expect((await api('GET', '/api/outbox')).status).toBe(401);
  });

  it('does not exist in production, signed in or not', async () => {
    const owner = await signedInUser();
    for (const token of [owner.token, undefined]) {
      const res = await productionApi('GET', '/api/outbox', token);
      expect(res.status).toBe(404);
      expect(res.data).toEqual({ detail: 'No API route for GET /api/outbox' });
    }
  });
});

describe('GET /api/outbox/status', () => {
  it('says enabled in development and disabled in production, without a session', async () => {
    const dev = await api('GET', '/api/outbox/status');
    expect(dev.status).toBe(200);
    expect(dev.data).toEqual({ enabled: true });
    expect(await productionApi('GET', '/api/outbox/status')).toEqual({ status: 200, data: { enabled: false } });
  });
});

describe('outbox over tRPC', () => {
  it('status is public; list needs a session and answers with the caller’s own mailbox like REST', async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    expect(await (await callerAs(null)).outbox.status()).toEqual({ enabled: true });
    await expect((await callerAs(null)).outbox.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await deliverToOutbox(createServiceContext(env), 'push', 'https://push.example/x', sample('trpc:1', owner.id));
    const listed = await (await callerAs(owner.id)).outbox.list({ limit: 500 });
    expect(listed.enabled).toBe(true);
    expect(listed.messages.map((m) => m.idempotency_key)).toContain('trpc:1');
    expect((await (await callerAs(outsider.id)).outbox.list({ limit: 500 })).messages.map((m) => m.idempotency_key)).not.toContain('trpc:1');
    await expect((await callerAs(owner.id)).outbox.list({ limit: 0 })).rejects.toMatchObject({ code: 'UNPROCESSABLE_CONTENT' });
  });

  it('in production: status says disabled and list is not found', async () => {
    const owner = await signedInUser();
    const caller = await callerAs(owner.id, { services: createServiceContext(production) });
    expect(await caller.outbox.status()).toEqual({ enabled: false });
    await expect(caller.outbox.list()).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers over HTTP without a session', async () => {
    const res = await api('GET', '/api/trpc/outbox.status');
    expect(res.status).toBe(200);
    expect(res.data.result.data).toEqual({ enabled: true });
    expect((await api('GET', '/api/trpc/outbox.list')).status).toBe(401);
  });
});
