import { env } from 'cloudflare:test';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { PHONE_CODE_MAX_ATTEMPTS, PHONE_CODE_RESEND_SECONDS, PHONE_CODE_TTL_SECONDS, PHONE_CODES_PER_HOUR } from '../src/contracts/profile';
import { createServiceContext } from '../src/wiring/service-context';
import { startPhoneVerification } from '../src/domains/profile/start-phone-verification';
import { newVerificationCode } from '../src/domains/profile/verification-code';
import { CODE_EXPIRED, LAST_WRONG_CODE, NO_CODE_PENDING, verifyPhone, WRONG_CODE } from '../src/domains/profile/verify-phone';
import type { RecordedTwilioRequest, TwilioPeerMode } from './peers/twilio';
import { callerAs } from './helpers/trpc';
import { api, signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';

const PHONE = '+14155550100';

/** The code as the user would read it from their phone: the newest SMS in this account's local mailbox. */
async function codeFromOutbox(userId: string) {
  const row = await env.DB.prepare(
    "SELECT address, subject, text, created_at FROM outbox_messages WHERE channel = 'sms' AND recipient_user_id = ? ORDER BY created_at DESC LIMIT 1",
  )
    .bind(userId)
    .first<{ address: string; subject: string; text: string; created_at: number }>();
  if (!row) throw new Error('no code in the outbox');
  return { ...row, code: row.text.match(/\b(\d{6})\b/)![1]! };
}

const verificationRow = (userId: string) =>
  env.DB.prepare('SELECT * FROM phone_verifications WHERE user_id = ?')
    .bind(userId)
    .first<{ phone: string; code_hash: string; attempts: number; expires_at: number; created_at: number }>();

const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

afterEach(() => vi.restoreAllMocks());

describe('GET|PATCH /api/profile', () => {
  it('shows a new account’s profile: empty name, UTC, no phone', async () => {
    const owner = await signedInUser();
    const res = await api('GET', '/api/profile', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      id: owner.id,
      email: owner.email,
      display_name: '',
      time_zone: 'UTC',
      phone: null,
      phone_verified: false,
      pending_phone: null,
    });
  });

  it('changes only the fields sent, trimmed', async () => {
    const owner = await signedInUser();
    const named = await api('PATCH', '/api/profile', { token: owner.token, json: { display_name: '  Ada Lovelace ' } });
    expect(named.status).toBe(200);
    expect(named.data).toMatchObject({ display_name: 'Ada Lovelace', time_zone: 'UTC' });
    const zoned = await api('PATCH', '/api/profile', { token: owner.token, json: { time_zone: 'Europe/Berlin' } });
    expect(zoned.data).toMatchObject({ display_name: 'Ada Lovelace', time_zone: 'Europe/Berlin' });
    expect((await api('PATCH', '/api/profile', { token: owner.token, json: {} })).data).toEqual(zoned.data);
    expect((await api('GET', '/api/profile', { token: owner.token })).data).toEqual(zoned.data);
  });

  it.each([
    ['an unknown time zone', { time_zone: 'Mars/Olympus_Mons' }, ['body', 'time_zone']],
    ['an empty time zone', { time_zone: '' }, ['body', 'time_zone']],
    ['a name over 100 characters', { display_name: 'x'.repeat(101) }, ['body', 'display_name']],
    ['a name that is not text', { display_name: 42 }, ['body', 'display_name']],
  ])('refuses %s with 422', async (_name, json, loc) => {
    const owner = await signedInUser();
    const res = await api('PATCH', '/api/profile', { token: owner.token, json });
    expect(res.status).toBe(422);
    expect(res.data.detail[0].loc).toEqual(loc);
    expect((await api('GET', '/api/profile', { token: owner.token })).data).toMatchObject({ display_name: '', time_zone: 'UTC' });
  });

  it('needs a session on every profile route', async () => {
    for (const [method, path, json] of [
      ['GET', '/api/profile', undefined],
      ['PATCH', '/api/profile', { display_name: 'x' }],
      ['POST', '/api/profile/phone', { phone: PHONE }],
      ['POST', '/api/profile/phone/verify', { code: '123456' }],
      ['DELETE', '/api/profile/phone', undefined],
    ] as const) {
      const res = await api(method, path, { json });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.data).toEqual({ detail: 'Not authenticated' });
    }
  });
});

describe('phone verification', () => {
  it('texts a code, stores only its hash, and a right code verifies the number', async () => {
    const owner = await signedInUser();
    const started = await api('POST', '/api/profile/phone', { token: owner.token, json: { phone: '+1 (415) 555-0100' } });
    expect(started.status).toBe(200);
    expect(started.data).toMatchObject({ phone: null, phone_verified: false, pending_phone: PHONE });
    expect(Date.parse(started.data.code_expires_at) - Date.parse(started.data.resend_available_at)).toBe(
      (PHONE_CODE_TTL_SECONDS - PHONE_CODE_RESEND_SECONDS) * 1000,
    );

    const sms = await codeFromOutbox(owner.id);
    expect(sms.address).toBe(PHONE);
    expect(sms.subject).toBe('Afterword verification code');
    expect(sms.text).toBe(`Your Afterword code is ${sms.code}. It expires in 10 minutes.`);

    const row = await verificationRow(owner.id);
    expect(row).toMatchObject({ phone: PHONE, attempts: 0 });
    expect(row!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(sms.code);
    expect(row!.expires_at - row!.created_at).toBe(PHONE_CODE_TTL_SECONDS * 1000);

    const verified = await api('POST', '/api/profile/phone/verify', { token: owner.token, json: { code: ` ${sms.code} ` } });
    expect(verified.status).toBe(200);
    expect(verified.data).toMatchObject({ phone: PHONE, phone_verified: true, pending_phone: null });
    expect(await verificationRow(owner.id)).toBeNull();
    const user = await env.DB.prepare('SELECT phone_e164, phone_verified_at FROM users WHERE id = ?')
      .bind(owner.id)
      .first<{ phone_e164: string; phone_verified_at: number }>();
    expect(user?.phone_e164).toBe(PHONE);
    expect(user?.phone_verified_at).toBeGreaterThan(0);
    // The code is single use.
    const again = await api('POST', '/api/profile/phone/verify', { token: owner.token, json: { code: sms.code } });
    expect(again.status).toBe(422);
    expect(again.data).toEqual({ detail: NO_CODE_PENDING });
  });

  it('never writes the code to the logs', async () => {
    const lines: string[] = [];
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
    }
    const owner = await signedInUser();
    await api('POST', '/api/profile/phone', { token: owner.token, json: { phone: PHONE } });
    const { code } = await codeFromOutbox(owner.id);
    await api('POST', '/api/profile/phone/verify', { token: owner.token, json: { code: otherCode(code) } });
    await api('POST', '/api/profile/phone/verify', { token: owner.token, json: { code } });
    expect(lines.join('\n')).not.toContain(code);
  });

  it(`counts wrong codes and, after ${PHONE_CODE_MAX_ATTEMPTS}, asks for a new code`, async () => {
    const owner = await signedInUser();
    await api('POST', '/api/profile/phone', { token: owner.token, json: { phone: PHONE } });
    const { code } = await codeFromOutbox(owner.id);
    const wrong = otherCode(code);
    for (let i = 1; i < PHONE_CODE_MAX_ATTEMPTS; i++) {
      const res = await api('POST', '/api/profile/phone/verify', { token: owner.token, json: { code: wrong } });
      expect(res.status).toBe(422);
      expect(res.data).toEqual({ detail: WRONG_CODE });
      expect((await verificationRow(owner.id))?.attempts).toBe(i);
    }
    const last = await api('POST', '/api/profile/phone/verify', { token: owner.token, json: { code: wrong } });
    expect(last.status).toBe(422);
    expect(last.data).toEqual({ detail: LAST_WRONG_CODE });
    expect(await verificationRow(owner.id)).toBeNull();
    // Even the right code no longer works: the user must ask for a new one.
    const late = await api('POST', '/api/profile/phone/verify', { token: owner.token, json: { code } });
    expect(late.data).toEqual({ detail: NO_CODE_PENDING });
    expect((await api('GET', '/api/profile', { token: owner.token })).data).toMatchObject({ phone: null, pending_phone: null });
  });

  it('holds the attempt limit under parallel guesses', async () => {
    const owner = await signedInUser();
    await api('POST', '/api/profile/phone', { token: owner.token, json: { phone: PHONE } });
    const { code } = await codeFromOutbox(owner.id);
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const answers = await Promise.all(guesses.map((g) => api('POST', '/api/profile/phone/verify', { token: owner.token, json: { code: g } })));
    expect(answers.every((a) => a.status === 422)).toBe(true);
    const judged = answers.filter((a) => a.data.detail === WRONG_CODE || a.data.detail === LAST_WRONG_CODE);
    expect(judged.length).toBe(PHONE_CODE_MAX_ATTEMPTS);
  });

  it('lets a code expire after ten minutes (clock under test control)', async () => {
    const owner = await signedInUser();
    const t0 = Date.now();
    await startPhoneVerification(servicesAt(t0), owner.id, PHONE);
    const { code } = await codeFromOutbox(owner.id);
    await expect(verifyPhone(servicesAt(t0 + PHONE_CODE_TTL_SECONDS * 1000), owner.id, code)).rejects.toMatchObject({
      code: 'UNPROCESSABLE',
      detail: CODE_EXPIRED,
    });
    expect(await verificationRow(owner.id)).toBeNull();

    await startPhoneVerification(servicesAt(t0 + 700_000), owner.id, PHONE);
    const second = await codeFromOutbox(owner.id);
    const view = await verifyPhone(servicesAt(t0 + 700_000 + PHONE_CODE_TTL_SECONDS * 1000 - 1), owner.id, second.code);
    expect(view).toMatchObject({ phone: PHONE, phone_verified: true });
  });

  it('refuses a second code within 60 s with 429 and Retry-After; afterwards the new code replaces the old', async () => {
    const owner = await signedInUser();
    const first = await api('POST', '/api/profile/phone', { token: owner.token, json: { phone: PHONE } });
    expect(first.status).toBe(200);
    const again = await api('POST', '/api/profile/phone', { token: owner.token, json: { phone: '+14155550199' } });
    expect(again.status).toBe(429);
    const retry = Number(again.headers.get('Retry-After'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(PHONE_CODE_RESEND_SECONDS);
    expect(again.data.detail).toMatch(/^A code was just sent\. Wait \d+ seconds before asking for another\.$/);
    expect((await verificationRow(owner.id))?.phone).toBe(PHONE);

    const old = await codeFromOutbox(owner.id);
    const later = servicesAt(old.created_at + PHONE_CODE_RESEND_SECONDS * 1000);
    const next = await startPhoneVerification(later, owner.id, '+14155550199');
    expect(next.pending_phone).toBe('+14155550199');
    const fresh = await codeFromOutbox(owner.id);
    expect(fresh.address).toBe('+14155550199');
    if (fresh.code !== old.code) {
      await expect(verifyPhone(later, owner.id, old.code)).rejects.toMatchObject({ detail: WRONG_CODE });
    }
    expect(await verifyPhone(later, owner.id, fresh.code)).toMatchObject({ phone: '+14155550199', phone_verified: true });
  });

  it(`sends at most ${PHONE_CODES_PER_HOUR} codes an hour per account`, async () => {
    const owner = await signedInUser();
    const t0 = Date.now();
    for (let i = 0; i < PHONE_CODES_PER_HOUR; i++) await startPhoneVerification(servicesAt(t0 + i * 61_000), owner.id, PHONE);
    const capped = startPhoneVerification(servicesAt(t0 + PHONE_CODES_PER_HOUR * 61_000), owner.id, PHONE);
    await expect(capped).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      detail: expect.stringMatching(/^Too many codes requested\. Try again in \d+ minutes\.$/),
    });
    const err = await capped.catch((e) => e);
    expect(Number(err.headers['Retry-After'])).toBe(3600 - PHONE_CODES_PER_HOUR * 61);
    await expect(startPhoneVerification(servicesAt(t0 + 3600_000), owner.id, PHONE)).resolves.toMatchObject({ pending_phone: PHONE });
  });

  it.each([
    ['letters', { phone: 'call me' }],
    ['a leading zero after +', { phone: '+0415555010' }],
    ['no plus sign', { phone: '4155550100' }],
    ['too many digits', { phone: '+1234567890123456' }],
    ['no phone', {}],
  ])('refuses a phone with %s (422) and sends nothing', async (_name, json) => {
    const owner = await signedInUser();
    const res = await api('POST', '/api/profile/phone', { token: owner.token, json });
    expect(res.status).toBe(422);
    expect(res.data.detail[0].loc).toEqual(['body', 'phone']);
    expect(await verificationRow(owner.id)).toBeNull();
  });

  it.each([
    ['five digits', '12345'],
    ['seven digits', '1234567'],
    ['letters', 'abcdef'],
    ['a number', 123456],
  ])('refuses a code of %s with 422', async (_name, code) => {
    const owner = await signedInUser();
    const res = await api('POST', '/api/profile/phone/verify', { token: owner.token, json: { code } });
    expect(res.status).toBe(422);
    expect(res.data.detail[0].loc).toEqual(['body', 'code']);
  });

  it('answers 422 when no code was asked for', async () => {
    const owner = await signedInUser();
    const res = await api('POST', '/api/profile/phone/verify', { token: owner.token, json: { code: '123456' } });
    expect(res.status).toBe(422);
    expect(res.data).toEqual({ detail: NO_CODE_PENDING });
  });

  it('a code verifies only the account it was sent for', async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    await api('POST', '/api/profile/phone', { token: owner.token, json: { phone: PHONE } });
    const { code } = await codeFromOutbox(owner.id);
    const stolen = await api('POST', '/api/profile/phone/verify', { token: other.token, json: { code } });
    expect(stolen.status).toBe(422);
    expect((await api('GET', '/api/profile', { token: other.token })).data).toMatchObject({ phone: null, pending_phone: null });
    expect((await verificationRow(owner.id))?.attempts).toBe(0);
  });

  it('removing the phone clears the number, a pending code and SMS from the saved methods', async () => {
    const owner = await signedInUser();
    await api('POST', '/api/profile/phone', { token: owner.token, json: { phone: PHONE } });
    await api('POST', '/api/profile/phone/verify', { token: owner.token, json: { code: (await codeFromOutbox(owner.id)).code } });
    const prefs = { methods: ['sms', 'email'], quiet_hours: { start: '22:00', end: '07:00' }, alerts: { vaults: true, messages: true, canary_events: true } };
    expect((await api('POST', '/api/notify/preferences', { token: owner.token, json: prefs })).status).toBe(200);
    await startPhoneVerification(servicesAt(Date.now() + 120_000), owner.id, '+14155550199');

    const removed = await api('DELETE', '/api/profile/phone', { token: owner.token });
    expect(removed.status).toBe(200);
    expect(removed.data).toMatchObject({ phone: null, phone_verified: false, pending_phone: null });
    expect(await verificationRow(owner.id)).toBeNull();
    expect((await api('GET', '/api/notify/preferences', { token: owner.token })).data.methods).toEqual(['email']);
    expect((await api('POST', '/api/notify/preferences', { token: owner.token, json: prefs })).status).toBe(422);
    // Removing again is harmless.
    expect((await api('DELETE', '/api/profile/phone', { token: owner.token })).status).toBe(200);
  });
});

describe('phone verification through the Twilio adapter', () => {
  const peer = inject('twilioPeer');

  async function twilioServices() {
    const hex = (n: number) => [...crypto.getRandomValues(new Uint8Array(n))].map((b) => b.toString(16).padStart(2, '0')).join('');
    const sid = `AC${hex(16)}`;
    const authToken = `tok${hex(16)}`;
    await fetch(`${peer.baseUrl}/__accounts`, { method: 'POST', body: JSON.stringify({ sid, authToken }) });
    const ctx = createServiceContext({
      ...env,
      SMS_TRANSPORT: 'twilio',
      TWILIO_ACCOUNT_SID: sid,
      TWILIO_AUTH_TOKEN: authToken,
      TWILIO_FROM: '+15005550006',
      TWILIO_API_BASE: peer.baseUrl,
    });
    return {
      ctx,
      behave: (mode: TwilioPeerMode) => fetch(`${peer.baseUrl}/__behave?account=${sid}`, { method: 'POST', body: JSON.stringify({ mode }) }),
      requests: async () => (await (await fetch(`${peer.baseUrl}/__requests?account=${sid}`)).json()) as RecordedTwilioRequest[],
    };
  }

  it('sends the code as an SMS the provider accepts, and it verifies', async () => {
    const owner = await signedInUser();
    const twilio = await twilioServices();
    await startPhoneVerification(twilio.ctx, owner.id, PHONE);
    const [sent] = await twilio.requests();
    expect(sent!.form.To).toEqual([PHONE]);
    const code = sent!.form.Body![0]!.match(/\b(\d{6})\b/)![1]!;
    expect(await verifyPhone(twilio.ctx, owner.id, code)).toMatchObject({ phone: PHONE, phone_verified: true });
  });

  it('a number the provider refuses is 422 and leaves no code behind', async () => {
    const owner = await signedInUser();
    const twilio = await twilioServices();
    await twilio.behave('invalid_to');
    await expect(startPhoneVerification(twilio.ctx, owner.id, PHONE)).rejects.toMatchObject({
      code: 'UNPROCESSABLE',
      detail: 'We could not send a text to that number. Check it and try again.',
    });
    expect(await verificationRow(owner.id)).toBeNull();
  });

  it('a provider outage is a 500 with a retry hint, leaves no code behind, and does not block a retry', async () => {
    const owner = await signedInUser();
    const twilio = await twilioServices();
    await twilio.behave('server_error');
    await expect(startPhoneVerification(twilio.ctx, owner.id, PHONE)).rejects.toMatchObject({
      code: 'INTERNAL',
      detail: 'We could not send the text message just now. Try again in a minute.',
    });
    expect(await verificationRow(owner.id)).toBeNull();
    await twilio.behave('ok');
    await expect(startPhoneVerification(twilio.ctx, owner.id, PHONE)).resolves.toMatchObject({ pending_phone: PHONE });
  });
});

describe('verification codes', () => {
  it('are six digits, spread evenly', () => {
    const counts = new Array(10).fill(0);
    for (let i = 0; i < 20_000; i++) {
      const code = newVerificationCode();
      expect(code).toMatch(/^\d{6}$/);
      counts[Number(code[0])]++;
    }
    for (const n of counts) expect(Math.abs(n - 2000)).toBeLessThan(300);
  });

  it('redraws values that would bias the result instead of folding them with a modulo', () => {
    let call = 0;
    vi.spyOn(crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      (array as unknown as Uint32Array)[0] = call++ === 0 ? 0xffff_ffff : 42;
      return array;
    });
    expect(newVerificationCode()).toBe('000042');
    expect(call).toBe(2);
  });
});

describe('profile over tRPC', () => {
  it('get, update, startPhoneVerification, verifyPhone and removePhone', async () => {
    const owner = await signedInUser();
    const caller = await callerAs(owner.id);
    expect(await caller.profile.get()).toMatchObject({ id: owner.id, display_name: '' });
    expect(await caller.profile.update({ display_name: 'Grace', time_zone: 'America/New_York' })).toMatchObject({
      display_name: 'Grace',
      time_zone: 'America/New_York',
    });
    expect(await caller.profile.startPhoneVerification({ phone: PHONE })).toMatchObject({ pending_phone: PHONE });
    const resHeaders = new Headers();
    const throttled = await callerAs(owner.id, { resHeaders });
    await expect(throttled.profile.startPhoneVerification({ phone: PHONE })).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(Number(resHeaders.get('Retry-After'))).toBeGreaterThan(0);
    await expect(caller.profile.verifyPhone({ code: otherCode((await codeFromOutbox(owner.id)).code) })).rejects.toMatchObject({
      code: 'UNPROCESSABLE_CONTENT',
      message: WRONG_CODE,
    });
    expect(await caller.profile.verifyPhone({ code: (await codeFromOutbox(owner.id)).code })).toMatchObject({ phone: PHONE, phone_verified: true });
    expect(await caller.profile.removePhone()).toMatchObject({ phone: null, phone_verified: false });
  });

  it('refuses without a session, and bad input with 422, over HTTP', async () => {
    expect((await api('GET', '/api/trpc/profile.get')).status).toBe(401);
    const owner = await signedInUser();
    const res = await api('POST', '/api/trpc/profile.update', { token: owner.token, json: { time_zone: 'Nowhere/Else' } });
    expect(res.status).toBe(422);
    expect(res.data.error.data.detail[0].loc).toEqual(['body', 'time_zone']);
  });
});
