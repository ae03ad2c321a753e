import { describe, expect, inject, it } from 'vitest';
import { createSmtpSender, type SmtpConfig } from '../../src/channels/email/smtp';
import type { DeliveryResult, OutgoingMessage } from '../../src/channels/types';
import type { ReceivedMessage } from '../peers/smtp';

// The production SMTP adapter, running in workerd, talking over cloudflare:sockets to a real
// smtp-server started by the vitest globalSetup (test/peers/smtp.ts).
const peer = inject('smtpPeer');

const FROM = { email: 'no-reply@afterword.test', name: 'Afterword' };

function config(overrides: Partial<SmtpConfig> = {}): SmtpConfig {
  return {
    host: peer.host,
    port: peer.port,
    secure: 'none',
    user: peer.user,
    password: peer.password,
    from: FROM,
    timeoutMs: 5_000,
    ...overrides,
  };
}

function uniqueAddress(local = 'recipient'): string {
  return `${local}.${crypto.randomUUID().slice(0, 8)}@example.test`;
}

async function receivedBy(address: string): Promise<ReceivedMessage[]> {
  const res = await fetch(`${peer.control}/messages?to=${encodeURIComponent(address.toLowerCase())}`);
  expect(res.status).toBe(200);
  return (await res.json()) as ReceivedMessage[];
}

function message(overrides: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    idempotencyKey: `msg_${crypto.randomUUID()}:email`,
    subject: 'A message for you',
    text: 'Hello.',
    link: 'https://afterword.test/app/inbox/m_123',
    ...overrides,
  };
}

/** Every form in which the SMTP password could leak into a result. */
function expectNoSecret(result: DeliveryResult) {
  const json = JSON.stringify(result);
  expect(json).not.toContain(peer.password);
  expect(json).not.toContain(btoa(peer.password));
  expect(json).not.toContain(btoa(`\u0000${peer.user}\u0000${peer.password}`));
}

describe('SMTP adapter against a real SMTP server', () => {
  it('delivers a complete RFC 5322 message with non-ASCII subject, names and body', async () => {
    const to = uniqueAddress('ana');
    const text = [
      'Liebe Ána,',
      '',
      'wenn du das liest, bin ich nicht mehr da. Ich denke an dich — immer. 💐',
      '.a line that starts with a dot',
      '.',
      'A long line that goes on and on so that quoted-printable has to break it softly somewhere past seventy-six characters, twice even, ä ö ü ß.',
      'trailing spaces   ',
    ].join('\n');
    const msg = message({ subject: 'Ein letzter Gruß — für dich ✉', text });
    const send = createSmtpSender(config());

    const result = await send({ email: to, name: 'Ána Müller' }, msg);

    expect(result).toMatchObject({ ok: true });
    const [mail, ...rest] = await receivedBy(to);
    expect(rest).toHaveLength(0);
    expect(mail).toBeDefined();
    expect(mail!.envelope).toEqual({ mailFrom: FROM.email, rcptTo: [to.toLowerCase()] });
    expect(mail!.authUser).toBe(peer.user);
    expect(mail!.authMethod).toBe('PLAIN');
    expect(mail!.clientHostname).toBe('afterword.test');
    expect(mail!.from).toEqual([{ address: FROM.email, name: 'Afterword' }]);
    expect(mail!.to).toEqual([{ address: to, name: 'Ána Müller' }]);
    expect(mail!.subject).toBe('Ein letzter Gruß — für dich ✉');
    expect(mail!.rawSubject).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=/);
    expect(mail!.text?.trimEnd()).toBe(`${text.trimEnd()}\n\nRead it in your Afterword inbox:\nhttps://afterword.test/app/inbox/m_123`);
    // The lone-dot line survived: without dot-stuffing it would have ended DATA early.
    expect(mail!.text).toContain('\n.\n');
    expect(mail!.messageId).toMatch(/^<afterword\.[0-9a-f]{32}@afterword\.test>$/);
    expect(result.ok && result.providerId).toBe(mail!.messageId);
    expect(Math.abs(Date.parse(mail!.date!) - Date.now())).toBeLessThan(60_000);
    expect(mail!.headers['mime-version']).toMatch(/^MIME-Version: 1\.0$/);
    expect(mail!.headers['content-type']).toMatch(/text\/plain; charset=utf-8/i);
    expect(mail!.headers['content-transfer-encoding']).toMatch(/quoted-printable/i);
    expect(mail!.headers['auto-submitted']).toMatch(/auto-generated/);
    // 7-bit and line-length limits (RFC 5322 section 2.1.1): any relay can carry it.
    for (const line of mail!.raw.split('\r\n')) {
      expect(line.length).toBeLessThanOrEqual(78);
      expect(line).toMatch(/^[\x20-\x7e\t]*$/);
    }
  });

  it('gives every retry of one delivery the same Message-ID, and different deliveries different ones', async () => {
    const to = uniqueAddress();
    const send = createSmtpSender(config());
    const first = message();
    expect(await send({ email: to }, first)).toMatchObject({ ok: true });
    expect(await send({ email: to }, first)).toMatchObject({ ok: true });
    expect(await send({ email: to }, message())).toMatchObject({ ok: true });
    const ids = (await receivedBy(to)).map((m) => m.messageId);
    expect(ids).toHaveLength(3);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it('authenticates with AUTH LOGIN when the server offers no PLAIN', async () => {
    const to = uniqueAddress();
    const result = await createSmtpSender(config({ port: peer.loginOnlyPort }))({ email: to }, message());
    expect(result).toMatchObject({ ok: true });
    const [mail] = await receivedBy(to);
    expect(mail!.authUser).toBe(peer.user);
    expect(mail!.authMethod).toBe('LOGIN');
  });

  it('maps bad credentials over AUTH LOGIN to not retryable, without the password', async () => {
    const wrong = 'wrong-login-pa55-qq';
    const result = await createSmtpSender(config({ port: peer.loginOnlyPort, password: wrong }))({ email: uniqueAddress() }, message());
    expect(result).toMatchObject({ ok: false, retryable: false, status: 535 });
    expect(JSON.stringify(result)).not.toContain(wrong);
    expect(JSON.stringify(result)).not.toContain(btoa(wrong));
  });

  it('sends without AUTH when no user is configured', async () => {
    const to = uniqueAddress();
    const result = await createSmtpSender(config({ user: undefined, password: undefined }))({ email: to }, message());
    expect(result).toMatchObject({ ok: true });
    const [mail] = await receivedBy(to);
    expect(mail!.authUser).toBeNull();
  });

  it('maps bad credentials (535) to a permanent failure without the password', async () => {
    const to = uniqueAddress();
    const wrong = 'wrong-pa55word-zz';
    const result = await createSmtpSender(config({ password: wrong }))({ email: to }, message());
    expect(result).toMatchObject({ ok: false, retryable: false, status: 535 });
    const json = JSON.stringify(result);
    expect(json).not.toContain(wrong);
    expect(json).not.toContain(btoa(`\u0000${peer.user}\u0000${wrong}`));
    expect(await receivedBy(to)).toHaveLength(0);
  });

  it('maps 550 unknown mailbox to not retryable', async () => {
    const to = 'reject-550@example.test';
    const result = await createSmtpSender(config())({ email: to }, message());
    expect(result).toMatchObject({ ok: false, retryable: false, status: 550 });
    if (!result.ok) expect(result.error).toMatch(/RCPT TO.*550/);
    expectNoSecret(result);
    expect(await receivedBy(to)).toHaveLength(0);
  });

  it('maps 451 temporary failure to retryable', async () => {
    const result = await createSmtpSender(config())({ email: 'tempfail-451@example.test' }, message());
    expect(result).toMatchObject({ ok: false, retryable: true, status: 451 });
    expectNoSecret(result);
  });

  it('maps a refused connection to retryable', async () => {
    const result = await createSmtpSender(config({ port: peer.refusedPort }))({ email: uniqueAddress() }, message());
    expect(result).toMatchObject({ ok: false, retryable: true });
    expectNoSecret(result);
  });

  it('maps a connection the server drops mid-transaction to retryable', async () => {
    const result = await createSmtpSender(config())({ email: 'drop@example.test' }, message());
    expect(result).toMatchObject({ ok: false, retryable: true });
    expectNoSecret(result);
  });

  it('gives up after its timeout when the server stops answering, as retryable', async () => {
    const started = Date.now();
    const result = await createSmtpSender(config({ timeoutMs: 400 }))({ email: 'hang@example.test' }, message());
    expect(result).toMatchObject({ ok: false, retryable: true });
    if (!result.ok) expect(result.error).toMatch(/timed out .* during RCPT TO/);
    expect(Date.now() - started).toBeLessThan(4_000);
    expectNoSecret(result);
  });

  it('refuses to go on in clear text when STARTTLS is required but not offered', async () => {
    const to = uniqueAddress();
    const result = await createSmtpSender(config({ secure: 'starttls' }))({ email: to }, message());
    expect(result).toMatchObject({ ok: false, retryable: false });
    if (!result.ok) expect(result.error).toMatch(/STARTTLS/);
    expectNoSecret(result);
    expect(await receivedBy(to)).toHaveLength(0);
  });

  it('rejects a recipient address that would inject SMTP commands', async () => {
    const evil = uniqueAddress('evil');
    const result = await createSmtpSender(config())({ email: `victim@example.test>\r\nRCPT TO:<${evil}` }, message());
    expect(result).toMatchObject({ ok: false, retryable: false });
    expect(await receivedBy(evil)).toHaveLength(0);
  });

  it('keeps CR/LF in the subject and names from adding headers', async () => {
    const to = uniqueAddress();
    const result = await createSmtpSender(config())(
      { email: to, name: 'Bob\r\nBcc: spy@example.test' },
      message({ subject: 'Hello\r\nBcc: spy@example.test' }),
    );
    expect(result).toMatchObject({ ok: true });
    const [mail] = await receivedBy(to);
    expect(mail!.headers.bcc).toBeUndefined();
    expect(mail!.envelope.rcptTo).toEqual([to.toLowerCase()]);
    expect(mail!.subject).toBe('Hello Bcc: spy@example.test');
  });
});
