import { describe, expect, inject, it } from 'vitest';
import { createEmailChannel, type EmailSender } from '../../src/channels/email';
import type { EmailAddress, OutgoingMessage } from '../../src/channels/types';
import type { SentEmail } from '../peers/email-api';
import type { ReceivedMessage } from '../peers/smtp';

// createEmailChannel: EMAIL_TRANSPORT picks the adapter from string configuration, as in wrangler vars.
const smtp = inject('smtpPeer');
const api = inject('emailApiPeer');

function message(): OutgoingMessage {
  return {
    idempotencyKey: `msg_${crypto.randomUUID()}:email`,
    subject: 'Released',
    text: 'Your message.',
    link: 'https://afterword.test/app/inbox/m_789',
  };
}

function uniqueAddress(): string {
  return `channel.${crypto.randomUUID().slice(0, 8)}@example.test`;
}

const unusedOutbox: EmailSender = async () => {
  throw new Error('the outbox must not be used');
};

describe('createEmailChannel', () => {
  it('defaults to the outbox it is given', async () => {
    const calls: Array<[EmailAddress, OutgoingMessage]> = [];
    const outbox: EmailSender = async (to, msg) => {
      calls.push([to, msg]);
      return { ok: true, providerId: 'outbox-1' };
    };
    const channel = createEmailChannel({}, { outbox });
    const msg = message();
    expect(channel.transport).toBe('outbox');
    expect(await channel.send({ email: 'a@example.test' }, msg)).toEqual({ ok: true, providerId: 'outbox-1' });
    expect(calls).toEqual([[{ email: 'a@example.test' }, msg]]);
  });

  it('EMAIL_TRANSPORT=smtp delivers through the SMTP server configured by env strings', async () => {
    const channel = createEmailChannel(
      {
        EMAIL_TRANSPORT: 'smtp',
        SMTP_HOST: smtp.host,
        SMTP_PORT: String(smtp.port),
        SMTP_USER: smtp.user,
        SMTP_PASSWORD: smtp.password,
        SMTP_SECURE: 'none',
        EMAIL_FROM: 'Afterword <no-reply@afterword.test>',
      },
      { outbox: unusedOutbox },
    );
    const to = uniqueAddress();
    expect(channel.transport).toBe('smtp');
    expect(await channel.send({ email: to }, message())).toMatchObject({ ok: true });
    const res = await fetch(`${smtp.control}/messages?to=${encodeURIComponent(to)}`);
    const [mail] = (await res.json()) as ReceivedMessage[];
    expect(mail!.from).toEqual([{ address: 'no-reply@afterword.test', name: 'Afterword' }]);
    expect(mail!.authUser).toBe(smtp.user);
    expect(mail!.text).toContain('https://afterword.test/app/inbox/m_789');
  });

  it('EMAIL_TRANSPORT=api delivers through the configured API base', async () => {
    const channel = createEmailChannel(
      {
        EMAIL_TRANSPORT: 'api',
        EMAIL_API_BASE: api.base,
        EMAIL_API_KEY: api.apiKey,
        EMAIL_FROM: 'no-reply@afterword.test',
      },
      { outbox: unusedOutbox },
    );
    const to = uniqueAddress();
    expect(channel.transport).toBe('api');
    const result = await channel.send({ email: to }, message());
    const res = await fetch(`${api.base}/__sent?to=${encodeURIComponent(to)}`);
    const [sent] = (await res.json()) as SentEmail[];
    expect(result).toEqual({ ok: true, providerId: sent!.id });
    expect(sent!.body.from).toBe('no-reply@afterword.test');
  });

  it.each([
    [{ EMAIL_TRANSPORT: 'smtp', EMAIL_FROM: 'a@afterword.test', SMTP_PASSWORD: 'pw-zz9' }, /SMTP_HOST/],
    [{ EMAIL_TRANSPORT: 'smtp', SMTP_HOST: 'h', SMTP_SECURE: 'ssl', SMTP_PASSWORD: 'pw-zz9' }, /SMTP_SECURE/],
    [{ EMAIL_TRANSPORT: 'smtp', SMTP_HOST: 'h', SMTP_PORT: '99999', SMTP_PASSWORD: 'pw-zz9' }, /SMTP_PORT/],
    [{ EMAIL_TRANSPORT: 'smtp', SMTP_HOST: 'h', SMTP_PASSWORD: 'pw-zz9', SMTP_USER: 'u' }, /EMAIL_FROM/],
    [{ EMAIL_TRANSPORT: 'api', EMAIL_FROM: 'a@afterword.test' }, /EMAIL_API_KEY/],
    [{ EMAIL_TRANSPORT: 'api', EMAIL_API_KEY: 'pw-zz9', EMAIL_FROM: 'a@afterword.test', EMAIL_API_BASE: 'nope' }, /EMAIL_API_BASE/],
    [{ EMAIL_TRANSPORT: 'carrier-pigeon' }, /EMAIL_TRANSPORT/],
  ])('a misconfiguration answers a retryable failure naming the setting, not its value (%#)', async (env, setting) => {
    const channel = createEmailChannel(env, { outbox: unusedOutbox });
    const result = await channel.send({ email: uniqueAddress() }, message());
    expect(result).toMatchObject({ ok: false, retryable: true });
    if (!result.ok) expect(result.error).toMatch(setting);
    expect(JSON.stringify(result)).not.toContain('pw-zz9');
  });
});
