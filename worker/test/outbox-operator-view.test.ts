import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { deliverToOutbox } from '../src/channels/outbox';
import { createServiceContext } from '../src/wiring/service-context';
import { callerAs } from './helpers/trpc';
import { api, signedInUser } from './helpers/api';

type Settings = Partial<Record<'APP_ENV' | 'OUTBOX_OPERATOR_VIEW', string>>;
const envWith = (settings: Settings) => ({ ...env, ...settings }) as unknown as typeof env;

/** The real app with these settings over the same database (as `wrangler dev --var` or a deploy would set them). */
async function apiWith(settings: Settings, path: string, token?: string) {
  const headers = token ? { authorization: `Bearer ${token}` } : undefined;
  const res = await createApp().request(path, { method: 'GET', headers }, envWith(settings));
  return { status: res.status, data: (await res.json()) as any };
}

const OPERATOR_ON = { OUTBOX_OPERATOR_VIEW: 'true' };

/** Rows for the owner, for the recipient and for no known account. */
async function seedMailboxes() {
  const owner = await signedInUser();
  const recipient = await signedInUser();
  const ctx = createServiceContext(env);
  const row = (key: string, recipientUserId: string | null) => ({ idempotencyKey: key, recipientUserId, subject: key, text: 'Body' });
  await deliverToOutbox(ctx, 'email', owner.email, row(`op:${owner.id}`, owner.id));
  await deliverToOutbox(ctx, 'email', recipient.email, row(`op:${recipient.id}`, recipient.id));
  await deliverToOutbox(ctx, 'sms', '+14155550199', row(`op:nobody:${owner.id}`, null));
  return { owner, recipient, keys: [`op:${owner.id}`, `op:${recipient.id}`, `op:nobody:${owner.id}`] };
}
const keysOf = (data: { messages: { idempotency_key: string }[] }) => data.messages.map((m) => m.idempotency_key);

describe('GET /api/outbox/all: the operator view', () => {
  it('does not exist by default, signed in or not', async () => {
    const { owner } = await seedMailboxes();
    for (const token of [owner.token, undefined]) {
      const res = await api('GET', '/api/outbox/all', { token });
      expect(res.status).toBe(404);
      expect(res.data).toEqual({ detail: 'No API route for GET /api/outbox/all' });
    }
  });

  it('with OUTBOX_OPERATOR_VIEW = "true" lists every account’s rows, those with no recipient too', async () => {
    const { owner, keys } = await seedMailboxes();
    const res = await apiWith(OPERATOR_ON, '/api/outbox/all?limit=500', owner.token);
    expect(res.status).toBe(200);
    expect(keysOf(res.data)).toEqual(expect.arrayContaining(keys));
    expect((await apiWith(OPERATOR_ON, '/api/outbox/all')).status).toBe(401);
  });

  it('leaves each account’s own mailbox as it is when switched on', async () => {
    const { owner } = await seedMailboxes();
    const res = await apiWith(OPERATOR_ON, '/api/outbox?limit=500', owner.token);
    expect(keysOf(res.data)).toEqual([`op:${owner.id}`]);
  });

  it.each(['false', '1', 'yes', ''])('stays off for OUTBOX_OPERATOR_VIEW = "%s"', async (value) => {
    const { owner } = await seedMailboxes();
    expect((await apiWith({ OUTBOX_OPERATOR_VIEW: value }, '/api/outbox/all', owner.token)).status).toBe(404);
  });

  it('never exists in production, even with the setting', async () => {
    const { owner } = await seedMailboxes();
    const res = await apiWith({ ...OPERATOR_ON, APP_ENV: 'production' }, '/api/outbox/all', owner.token);
    expect(res).toEqual({ status: 404, data: { detail: 'No API route for GET /api/outbox/all' } });
  });
});

describe('outbox.listAll over tRPC', () => {
  it('is not found by default, lists every row with the setting, and is not found in production with it', async () => {
    const { owner, keys } = await seedMailboxes();
    await expect((await callerAs(owner.id)).outbox.listAll()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const on = await callerAs(owner.id, { services: createServiceContext(envWith(OPERATOR_ON)) });
    expect(keysOf(await on.outbox.listAll({ limit: 500 }))).toEqual(expect.arrayContaining(keys));
    const prod = await callerAs(owner.id, { services: createServiceContext(envWith({ ...OPERATOR_ON, APP_ENV: 'production' })) });
    await expect(prod.outbox.listAll()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect((await callerAs(null, { services: createServiceContext(envWith(OPERATOR_ON)) })).outbox.listAll()).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });
});
