import { describe, expect, inject, it } from 'vitest';
import { createEmailApiSender, type EmailApiConfig } from '../../src/channels/email/http-api';
import type { DeliveryResult, OutgoingMessage } from '../../src/channels/types';
import type { SentEmail } from '../peers/email-api';

// The production Resend adapter, running in workerd, against a node:http fake of Resend's documented
// POST /emails endpoint (test/peers/email-api.ts).
const peer = inject('emailApiPeer');
const smtp = inject('smtpPeer');

const FROM = { email: 'no-reply@afterword.test', name: 'Afterword' };

function config(overrides: Partial<EmailApiConfig> = {}): EmailApiConfig {
  return { base: peer.base, apiKey: peer.apiKey, from: FROM, timeoutMs: 5_000, ...overrides };
}

function uniqueAddress(local = 'recipient'): string {
  return `${local}.${crypto.randomUUID().slice(0, 8)}@example.test`;
}

function message(overrides: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    idempotencyKey: `msg_${crypto.randomUUID()}:email`,
    subject: 'A message for you',
    text: 'Hello.',
    link: 'https://afterword.test/app/inbox/m_456',
    ...overrides,
  };
}

async function sentTo(address: string): Promise<SentEmail[]> {
  const res = await fetch(`${peer.base}/__sent?to=${encodeURIComponent(address)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as SentEmail[];
}

function expectNoSecret(result: DeliveryResult, ...secrets: string[]) {
  for (const s of [peer.apiKey, ...secrets]) expect(JSON.stringify(result)).not.toContain(s);
}

describe('Resend HTTP API adapter against a fake of the documented endpoint', () => {
  it('POSTs the documented JSON with the bearer key and the idempotency key', async () => {
    const to = uniqueAddress('zoë');
    const msg = message({ subject: 'Für dich — ein letzter Gruß ✉', text: 'Liebe Zoë,\n\ndanke für alles. 💐' });
    const result = await createEmailApiSender(config())({ email: to, name: 'Zoë Brontë' }, msg);

    const [sent, ...rest] = await sentTo(to);
    expect(rest).toHaveLength(0);
    expect(result).toEqual({ ok: true, providerId: sent!.id });
    expect(sent!.authorization).toBe(`Bearer ${peer.apiKey}`);
    expect(sent!.contentType).toMatch(/^application\/json/);
    expect(sent!.idempotencyKey).toBe(msg.idempotencyKey);
    expect(sent!.body).toEqual({
      from: '"Afterword" <no-reply@afterword.test>',
      to: [`"Zoë Brontë" <${to}>`],
      subject: 'Für dich — ein letzter Gruß ✉',
      text: 'Liebe Zoë,\n\ndanke für alles. 💐\n\nRead it in your Afterword inbox:\nhttps://afterword.test/app/inbox/m_456',
    });
  });

  it('sends a retried delivery once: the same idempotency key answers the first id', async () => {
    const to = uniqueAddress();
    const send = createEmailApiSender(config());
    const msg = message();
    const first = await send({ email: to }, msg);
    const second = await send({ email: to }, msg);
    expect(first).toMatchObject({ ok: true });
    expect(second).toEqual(first);
    expect(await sentTo(to)).toHaveLength(1);
    const other = await send({ email: to }, message());
    expect(other.ok && first.ok && other.providerId !== first.providerId).toBe(true);
    expect(await sentTo(to)).toHaveLength(2);
  });

  it('maps 429 rate limiting to retryable', async () => {
    const result = await createEmailApiSender(config())({ email: 'status-429@example.test' }, message());
    expect(result).toMatchObject({ ok: false, retryable: true, status: 429 });
    if (!result.ok) expect(result.error).toMatch(/rate_limit_exceeded/);
    expectNoSecret(result);
  });

  it('maps 500 to retryable', async () => {
    const result = await createEmailApiSender(config())({ email: 'status-500@example.test' }, message());
    expect(result).toMatchObject({ ok: false, retryable: true, status: 500 });
    expectNoSecret(result);
  });

  it('maps 422 validation errors to not retryable', async () => {
    const result = await createEmailApiSender(config())({ email: 'status-422@example.test' }, message());
    expect(result).toMatchObject({ ok: false, retryable: false, status: 422 });
    if (!result.ok) expect(result.error).toMatch(/validation_error/);
    expectNoSecret(result);
  });

  it('maps a wrong API key (403) to not retryable, with neither key in the error', async () => {
    const wrongKey = 're_wrong_key_8c1d77';
    const to = uniqueAddress();
    const result = await createEmailApiSender(config({ apiKey: wrongKey }))({ email: to }, message());
    expect(result).toMatchObject({ ok: false, retryable: false, status: 403 });
    expectNoSecret(result, wrongKey);
    expect(await sentTo(to)).toHaveLength(0);
  });

  it('maps an unreachable API to retryable', async () => {
    const result = await createEmailApiSender(config({ base: `http://127.0.0.1:${smtp.refusedPort}` }))({ email: uniqueAddress() }, message());
    expect(result).toMatchObject({ ok: false, retryable: true });
    expectNoSecret(result);
  });

  it('rejects an invalid recipient address without calling the API', async () => {
    const result = await createEmailApiSender(config())({ email: 'not an address' }, message());
    expect(result).toMatchObject({ ok: false, retryable: false });
  });
});
