import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { deliverToOutbox, listOutbox } from '../../src/channels/outbox';
import { createServiceContext } from '../../src/env';

const message = (key: string) => ({ idempotencyKey: key, subject: 'A message from Ada', text: 'Read it in your inbox.', link: 'http://127.0.0.1:8787/app/messages' });

describe('the outbox channel (local default)', () => {
  it('stores what would have been sent, newest first', async () => {
    const ctx = createServiceContext(env);
    const first = await deliverToOutbox(ctx, 'email', 'grace@example.com', message('m1:email'));
    const second = await deliverToOutbox(ctx, 'sms', '+14155550100', { ...message('m1:sms'), link: undefined });
    expect(first).toEqual({ ok: true, providerId: expect.stringMatching(/^outbox:[0-9a-f-]{36}$/) });
    expect(second.ok).toBe(true);
    const rows = await listOutbox(ctx);
    expect(rows.map((r) => [r.channel, r.address, r.subject, r.link])).toEqual(
      expect.arrayContaining([
        ['sms', '+14155550100', 'A message from Ada', null],
        ['email', 'grace@example.com', 'A message from Ada', 'http://127.0.0.1:8787/app/messages'],
      ]),
    );
  });

  it('stores a redelivered job once and answers with the first delivery id', async () => {
    const ctx = createServiceContext(env);
    const first = await deliverToOutbox(ctx, 'push', 'https://push.example/abc', message('m2:push'));
    const again = await deliverToOutbox(ctx, 'push', 'https://push.example/abc', message('m2:push'));
    expect(again).toEqual(first);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM outbox_messages WHERE idempotency_key = 'm2:push'").first<{ n: number }>();
    expect(n?.n).toBe(1);
  });
});
