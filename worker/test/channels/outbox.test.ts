import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { deliverToOutbox, listOutbox } from '../../src/channels/outbox';
import { createServiceContext } from '../../src/wiring/service-context';
import { signedInUser } from '../helpers/api';
import { servicesAt } from '../helpers/canary';

const message = (key: string, recipientUserId: string | null) => ({
  idempotencyKey: key,
  recipientUserId,
  subject: 'A message from Ada',
  text: 'Read it in your inbox.',
  link: 'http://127.0.0.1:8787/app/messages',
});

describe('the outbox channel (local default)', () => {
  it('stores what would have been sent with the account it is for, and lists it to that account newest first', async () => {
    const ctx = createServiceContext(env);
    const recipient = await signedInUser();
    const first = await deliverToOutbox(ctx, 'email', 'grace@example.com', message('m1:email', recipient.id));
    const second = await deliverToOutbox(ctx, 'sms', '+14155550100', { ...message('m1:sms', recipient.id), link: undefined });
    expect(first).toEqual({ ok: true, providerId: expect.stringMatching(/^outbox:[0-9a-f-]{36}$/) });
    expect(second.ok).toBe(true);
    const rows = await listOutbox(ctx, { userId: recipient.id });
    expect(rows.map((r) => [r.channel, r.address, r.recipient_user_id, r.subject, r.link])).toEqual(
      expect.arrayContaining([
        ['sms', '+14155550100', recipient.id, 'A message from Ada', null],
        ['email', 'grace@example.com', recipient.id, 'A message from Ada', 'http://127.0.0.1:8787/app/messages'],
      ]),
    );
  });

  it('lists a row with no known recipient to the operator only', async () => {
    // Written a century from now: the operator's list is newest first, and other test files share this D1
    // (some with clocks years ahead), so the row must be the newest to be on the first page.
    const ctx = createServiceContext(env, () => new Date(Date.now() + 100 * 365 * 86_400_000));
    const outsider = await signedInUser();
    await deliverToOutbox(ctx, 'email', outsider.email, message('m3:email', null));
    expect((await listOutbox(ctx, { userId: outsider.id })).map((r) => r.idempotency_key)).not.toContain('m3:email');
    expect((await listOutbox(ctx, { operator: true })).map((r) => r.idempotency_key)).toContain('m3:email');
  });

  it('writes nothing for an account that no longer exists (a delivery in flight while the account is erased)', async () => {
    const ctx = createServiceContext(env);
    const gone = crypto.randomUUID();
    const result = await deliverToOutbox(ctx, 'email', 'left@example.com', message('m-gone:email', gone));
    expect(result).toEqual({ ok: false, retryable: false, error: 'The recipient no longer has an Afterword account.' });
    expect(await env.DB.prepare('SELECT count(*) AS n FROM outbox_messages WHERE recipient_user_id = ?').bind(gone).first()).toEqual({ n: 0 });
  });

  it('stores a redelivered job once and answers with the first delivery id and when it was accepted', async () => {
    const firstAt = Date.UTC(2026, 10, 29, 9, 0);
    const first = await deliverToOutbox(servicesAt(firstAt), 'push', 'https://push.example/abc', message('m2:push', null));
    const again = await deliverToOutbox(servicesAt(firstAt + 5 * 60_000), 'push', 'https://push.example/abc', message('m2:push', null));
    expect(first).toEqual({ ok: true, providerId: expect.stringMatching(/^outbox:/) });
    expect(again).toEqual({ ...first, acceptedAt: firstAt });
    const n = await env.DB.prepare("SELECT count(*) AS n FROM outbox_messages WHERE idempotency_key = 'm2:push'").first<{ n: number }>();
    expect(n?.n).toBe(1);
  });
});
