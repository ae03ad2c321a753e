import { describe, expect, inject, it } from 'vitest';
import { callChannelFromEnv, callTwiml, CALL_CLOSING, spokenText } from '../../src/channels/twilio/call';
import { TWILIO_DEFAULT_API_BASE, TWILIO_DEFAULT_TIMEOUT_MS, twilioResourceUrl } from '../../src/channels/twilio/client';
import { TwilioConfigError, type TwilioEnv } from '../../src/channels/twilio/config';
import { SMS_MAX_CHARS, smsBody, smsChannelFromEnv, type PhoneChannel } from '../../src/channels/twilio/sms';
import type { DeliveryResult, OutgoingMessage } from '../../src/channels/types';
import type { RecordedTwilioRequest, TwilioPeerMode } from '../peers/twilio';

// The adapters under test are the production ones, talking over real HTTP to the Twilio peer that
// test/peers/twilio.ts starts in vitest's globalSetup (Node) and hands over with `provide`/`inject`.
const peer = inject('twilioPeer');

function hex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const FROM = '+15005550006';
const TO = '+14155550123';
const ORIGIN = 'https://afterword.example';

/** A fresh Twilio account on the peer (tests run in parallel; each reads only its own requests). */
async function account(extra: Partial<TwilioEnv> = {}, apiKeys: { sid: string; secret: string }[] = []) {
  const sid = `AC${hex(16)}`;
  const token = `tok${hex(16)}`;
  const reg = await fetch(`${peer.baseUrl}/__accounts`, { method: 'POST', body: JSON.stringify({ sid, authToken: token, apiKeys }) });
  expect(reg.status).toBe(201);
  const env: TwilioEnv = {
    SMS_TRANSPORT: 'twilio',
    CALL_TRANSPORT: 'twilio',
    TWILIO_ACCOUNT_SID: sid,
    TWILIO_AUTH_TOKEN: token,
    TWILIO_FROM: FROM,
    TWILIO_API_BASE: peer.baseUrl,
    PUBLIC_ORIGIN: ORIGIN,
    ...extra,
  };
  return {
    sid,
    token,
    env,
    sms: () => smsChannelFromEnv(env) as PhoneChannel,
    call: () => callChannelFromEnv(env) as PhoneChannel,
    async requests(): Promise<RecordedTwilioRequest[]> {
      const res = await fetch(`${peer.baseUrl}/__requests?account=${sid}`);
      return (await res.json()) as RecordedTwilioRequest[];
    },
    async behave(mode: TwilioPeerMode, times?: number) {
      const res = await fetch(`${peer.baseUrl}/__behave?account=${sid}`, { method: 'POST', body: JSON.stringify({ mode, times }) });
      expect(res.status).toBe(200);
    },
  };
}

function message(overrides: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    idempotencyKey: `msg_${hex(8)}:sms`,
    subject: 'A message from Ada',
    text: 'I wanted you to have this.',
    link: 'https://afterword.example/app/inbox/m_123',
    ...overrides,
  };
}

function expectNoSecret(result: DeliveryResult, ...secrets: string[]) {
  const serialised = JSON.stringify(result);
  for (const secret of secrets) expect(serialised).not.toContain(secret);
}

function basic(user: string, pass: string) {
  return `Basic ${btoa(`${user}:${pass}`)}`;
}

function xmlUnescape(text: string) {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('peer wiring', () => {
  it('the Twilio peer address arrives through provide/inject inside workerd', () => {
    expect(peer.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(typeof navigator !== 'undefined' && navigator.userAgent).toBe('Cloudflare-Workers');
  });
});

describe('sms over Twilio (Messages.json)', () => {
  it('posts exactly To, From, Body and StatusCallback, form-encoded, with Basic auth and the idempotency token', async () => {
    const acct = await account();
    const msg = message();
    const result = await acct.sms().send(TO, msg);
    const [req, ...more] = await acct.requests();
    expect(more).toEqual([]);
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe(`/2010-04-01/Accounts/${acct.sid}/Messages.json`);
    expect(req!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(req!.headers['authorization']).toBe(basic(acct.sid, acct.token));
    expect(req!.headers['i-twilio-idempotency-token']).toBe(msg.idempotencyKey);
    expect(req!.form).toEqual({
      To: [TO],
      From: [FROM],
      Body: ['A message from Ada\n\nI wanted you to have this.\n\nhttps://afterword.example/app/inbox/m_123'],
      StatusCallback: ['https://afterword.example/api/notify/twilio/status'],
    });
    expect(req!.answered).toBe(201);
    expect(result).toEqual({ ok: true, providerId: req!.sid });
    expect(result.ok && result.providerId).toMatch(/^SM[0-9a-f]{32}$/);
  });

  it('uses MessagingServiceSid instead of From when a messaging service is configured', async () => {
    const acct = await account({ TWILIO_FROM: undefined, TWILIO_MESSAGING_SERVICE_SID: `MG${hex(16)}` });
    expect((await acct.sms().send(TO, message())).ok).toBe(true);
    const [req] = await acct.requests();
    expect(req!.form.MessagingServiceSid).toEqual([acct.env.TWILIO_MESSAGING_SERVICE_SID]);
    expect(req!.form.From).toBeUndefined();
  });

  it('authenticates with an API key (SID:secret) when one is configured, keeping the account in the path', async () => {
    const key = { sid: `SK${hex(16)}`, secret: `sec${hex(16)}` };
    const acct = await account({ TWILIO_AUTH_TOKEN: undefined, TWILIO_API_KEY_SID: key.sid, TWILIO_API_KEY_SECRET: key.secret }, [key]);
    const result = await acct.sms().send(TO, message());
    const [req] = await acct.requests();
    expect(req!.headers['authorization']).toBe(basic(key.sid, key.secret));
    expect(req!.path).toBe(`/2010-04-01/Accounts/${acct.sid}/Messages.json`);
    expect(result.ok).toBe(true);
  });

  it('sends no StatusCallback without a PUBLIC_ORIGIN, and strips a trailing slash from one', async () => {
    const bare = await account({ PUBLIC_ORIGIN: undefined });
    await bare.sms().send(TO, message());
    expect((await bare.requests())[0]!.form.StatusCallback).toBeUndefined();
    const slashed = await account({ PUBLIC_ORIGIN: 'https://afterword.example/' });
    await slashed.sms().send(TO, message());
    expect((await slashed.requests())[0]!.form.StatusCallback).toEqual(['https://afterword.example/api/notify/twilio/status']);
  });

  it('a repeated idempotency key gets the same Twilio message; a new key a new one', async () => {
    const acct = await account();
    const msg = message();
    const first = await acct.sms().send(TO, msg);
    const again = await acct.sms().send(TO, msg);
    const other = await acct.sms().send(TO, { ...msg, idempotencyKey: `${msg.idempotencyKey}-2` });
    expect(first.ok && again.ok && other.ok).toBe(true);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    const reqs = await acct.requests();
    expect(reqs.map((r) => r.headers['i-twilio-idempotency-token'])).toEqual([msg.idempotencyKey, msg.idempotencyKey, `${msg.idempotencyKey}-2`]);
  });

  it('keeps a long SMS within SMS_MAX_CHARS, with the link whole and no split surrogate pair', async () => {
    const acct = await account();
    const link = 'https://afterword.example/app/inbox/m_0123456789abcdef';
    const text = `${'Everything I never said. '.repeat(40)}${'💛'.repeat(500)}`;
    await acct.sms().send(TO, message({ text, link }));
    const body = (await acct.requests())[0]!.form.Body![0]!;
    expect(Array.from(body).length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(body.startsWith('A message from Ada\n\nEverything I never said.')).toBe(true);
    expect(body.endsWith(`…\n\n${link}`)).toBe(true);
    expect(body).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    // A short message is sent whole; no link, no trailing blank lines.
    expect(smsBody({ idempotencyKey: 'k', subject: ' Hi ', text: ' there ' })).toBe('Hi\n\nthere');
    const emojiOnly = smsBody({ idempotencyKey: 'k', subject: 'S', text: '💛'.repeat(1000) }, 10);
    expect(Array.from(emojiOnly)).toHaveLength(10);
    expect(emojiOnly).toBe(`S\n\n${'💛'.repeat(6)}…`);
  });

  it('refuses numbers that are not E.164 without calling Twilio, as gone', async () => {
    const acct = await account();
    const sms = acct.sms();
    for (const bad of [
      '',
      '+',
      '14155550123',
      '004414155550123',
      '+0123456789',
      '+1 415 555 0123',
      '+1-415-555-0123',
      '+1234567890123456',
      '+123456',
      `${TO}\n`,
      'tel:+14155550123',
    ]) {
      const result = await sms.send(bad, message());
      expect(result, bad).toMatchObject({ ok: false, retryable: false, gone: true });
    }
    expect(await acct.requests()).toEqual([]);
    for (const good of ['+14155550123', '+447911123456', '+123456789012345', '+6834002']) {
      expect((await sms.send(good, message())).ok, good).toBe(true);
    }
    expect((await acct.requests()).map((r) => r.form.To![0])).toEqual(['+14155550123', '+447911123456', '+123456789012345', '+6834002']);
  });

  it.each([
    ['invalid_to', 400, 21211],
    ['unsubscribed', 400, 21610],
  ] as const)('maps %s (Twilio %i/%i) to not retryable and gone', async (mode, status, code) => {
    const acct = await account();
    await acct.behave(mode);
    const result = await acct.sms().send(TO, message());
    expect(result).toMatchObject({ ok: false, retryable: false, gone: true, status });
    expect(!result.ok && result.error).toContain(String(code));
    expectNoSecret(result, acct.token);
  });

  it.each([
    ['rate_limited', 429, 20429],
    ['server_error', 500, 20500],
  ] as const)('maps %s (Twilio %i/%i) to retryable, and the retry with the same key succeeds', async (mode, status, code) => {
    const acct = await account();
    await acct.behave(mode, 1);
    const msg = message();
    const first = await acct.sms().send(TO, msg);
    expect(first).toMatchObject({ ok: false, retryable: true, status });
    expect(!first.ok && first.error).toContain(String(code));
    expect(!first.ok && first.gone).toBeFalsy();
    expectNoSecret(first, acct.token);
    const retry = await acct.sms().send(TO, msg);
    expect(retry.ok).toBe(true);
    expect((await acct.requests()).map((r) => [r.answered, r.headers['i-twilio-idempotency-token']])).toEqual([
      [status, msg.idempotencyKey],
      [201, msg.idempotencyKey],
    ]);
  });

  it('maps refused credentials (401/20003) to not retryable, not gone, and never echoes the token', async () => {
    const acct = await account();
    const wrong = `${acct.token}-wrong`;
    const result = await smsChannelFromEnv({ ...acct.env, TWILIO_AUTH_TOKEN: wrong })!.send(TO, message());
    expect(result).toMatchObject({ ok: false, retryable: false, status: 401 });
    expect(!result.ok && result.gone).toBeFalsy();
    expect(!result.ok && result.error).toContain('20003');
    expectNoSecret(result, wrong, acct.token);
  });

  it('gives up on a peer that never answers after the timeout, as retryable', async () => {
    const acct = await account({ TWILIO_TIMEOUT_MS: '300' });
    await acct.behave('hang');
    const started = Date.now();
    const result = await acct.sms().send(TO, message());
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({ ok: false, retryable: true });
    expect(!result.ok && result.error).toMatch(/no answer within 300 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(5_000);
    expect((await acct.requests())[0]!.answered).toBe(0); // it did reach the peer
    expectNoSecret(result, acct.token);
  });

  it('maps a connection failure to retryable, without the token', async () => {
    const acct = await account();
    // Port 9 (discard) on loopback: nothing listens there.
    const result = await smsChannelFromEnv({ ...acct.env, TWILIO_API_BASE: 'http://127.0.0.1:9' })!.send(TO, message());
    expect(result).toMatchObject({ ok: false, retryable: true });
    expectNoSecret(result, acct.token);
  });

  it('is chosen by SMS_TRANSPORT: outbox (the default) gives null; twilio without its variables throws naming them', () => {
    expect(smsChannelFromEnv({})).toBeNull();
    expect(smsChannelFromEnv({ SMS_TRANSPORT: 'outbox', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: FROM })).toBeNull();
    expect(() => smsChannelFromEnv({ SMS_TRANSPORT: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_FROM: FROM })).toThrow(TwilioConfigError);
    expect(() => smsChannelFromEnv({ SMS_TRANSPORT: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_FROM: FROM })).toThrow(/TWILIO_AUTH_TOKEN/);
    expect(() => smsChannelFromEnv({ SMS_TRANSPORT: 'twilio', TWILIO_AUTH_TOKEN: 'hunter2-secret' })).toThrow(/TWILIO_ACCOUNT_SID, TWILIO_FROM/);
    try {
      smsChannelFromEnv({ SMS_TRANSPORT: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 'hunter2-secret', TWILIO_FROM: 'not-a-number' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(TwilioConfigError);
      expect(String(err)).toMatch(/TWILIO_FROM must be an E\.164 number/);
      expect(String(err)).not.toContain('hunter2-secret');
    }
  });

  it("defaults to Twilio's API base and a 10 s timeout", () => {
    expect(TWILIO_DEFAULT_API_BASE).toBe('https://api.twilio.com');
    expect(TWILIO_DEFAULT_TIMEOUT_MS).toBe(10_000);
    expect(twilioResourceUrl({ accountSid: 'AC123' }, 'Messages')).toBe('https://api.twilio.com/2010-04-01/Accounts/AC123/Messages.json');
    expect(twilioResourceUrl({ accountSid: 'AC123', apiBase: 'http://127.0.0.1:1234/' }, 'Calls')).toBe(
      'http://127.0.0.1:1234/2010-04-01/Accounts/AC123/Calls.json',
    );
  });
});

describe('call over Twilio (Calls.json with TwiML)', () => {
  it('posts exactly To, From, Twiml and StatusCallback; the TwiML says subject, text and where to read it', async () => {
    const acct = await account();
    const msg = message({ idempotencyKey: 'msg_1:call' });
    const result = await acct.call().send(TO, msg);
    const [req, ...more] = await acct.requests();
    expect(more).toEqual([]);
    expect(req!.path).toBe(`/2010-04-01/Accounts/${acct.sid}/Calls.json`);
    expect(req!.headers['authorization']).toBe(basic(acct.sid, acct.token));
    expect(req!.headers['i-twilio-idempotency-token']).toBe('msg_1:call');
    expect(req!.form).toEqual({
      To: [TO],
      From: [FROM],
      Twiml: ['<Response><Say voice="Polly.Joanna">A message from Ada. I wanted you to have this. You can read it in your Afterword inbox.</Say></Response>'],
      StatusCallback: ['https://afterword.example/api/notify/twilio/status'],
    });
    expect(result).toEqual({ ok: true, providerId: req!.sid });
    expect(result.ok && result.providerId).toMatch(/^CA[0-9a-f]{32}$/);
  });

  it('escapes <, &, > and quotes in the spoken text and the voice', async () => {
    const acct = await account({ TWILIO_VOICE: 'Polly.Amy"' });
    const msg = message({ subject: 'Tom & Jerry <3', text: `if a < b && c > "d", it's </Say><Hangup/> done` });
    await acct.call().send(TO, msg);
    const twiml = (await acct.requests())[0]!.form.Twiml![0]!;
    expect(twiml).toBe(
      '<Response><Say voice="Polly.Amy&quot;">Tom &amp; Jerry &lt;3. if a &lt; b &amp;&amp; c &gt; &quot;d&quot;, it&apos;s &lt;/Say&gt;&lt;Hangup/&gt; done. You can read it in your Afterword inbox.</Say></Response>',
    );
    const inner = /^<Response><Say voice="[^"<]*">([^<]*)<\/Say><\/Response>$/.exec(twiml);
    expect(inner).not.toBeNull();
    expect(inner![1]).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
    expect(xmlUnescape(inner![1]!)).toBe(spokenText(msg));
  });

  it('keeps the TwiML within Twilio’s 4,000 characters, always ending with the inbox sentence', () => {
    const twiml = callTwiml(message({ text: '<&> '.repeat(3_000) }), 'Polly.Joanna');
    expect(twiml.length).toBeLessThanOrEqual(4_000);
    expect(twiml.endsWith(`… ${CALL_CLOSING}</Say></Response>`)).toBe(true);
    expect(twiml).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
  });

  it('maps an invalid number (21211) to gone and a 500 to retryable; refuses non-E.164 without a request', async () => {
    const acct = await account();
    await acct.behave('invalid_to', 1);
    expect(await acct.call().send(TO, message())).toMatchObject({ ok: false, retryable: false, gone: true, status: 400 });
    await acct.behave('server_error', 1);
    expect(await acct.call().send(TO, message())).toMatchObject({ ok: false, retryable: true, status: 500 });
    expect(await acct.call().send('+44 20 7946 0958', message())).toMatchObject({ ok: false, retryable: false, gone: true });
    expect((await acct.requests()).map((r) => r.answered)).toEqual([400, 500]);
  });

  it('is chosen by CALL_TRANSPORT and needs a From number even with a messaging service', () => {
    expect(callChannelFromEnv({ SMS_TRANSPORT: 'twilio' })).toBeNull();
    expect(callChannelFromEnv({ CALL_TRANSPORT: 'outbox' })).toBeNull();
    expect(() =>
      callChannelFromEnv({ CALL_TRANSPORT: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't', TWILIO_MESSAGING_SERVICE_SID: 'MG1' }),
    ).toThrow(/call over Twilio needs TWILIO_FROM/);
  });
});
