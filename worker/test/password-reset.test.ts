import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { PASSWORD_RESET_EMAILS_PER_HOUR, PASSWORD_RESET_REQUESTS_PER_ADDRESS_PER_HOUR, PASSWORD_RESET_TTL_MINUTES } from '../src/contracts/auth';
import { LOGIN_LIMITS } from '../src/domains/auth/login-throttle';
import { confirmPasswordReset, inspectPasswordReset, PASSWORD_RESET_ERRORS, requestPasswordReset } from '../src/domains/auth/password-reset';
import { hashSecret } from '../src/lib/secrets';
import { b64u, keyBundle as bundle, passwordWrap, recoveryWrap } from './helpers/e2ee';
import { api, signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';

type User = Awaited<ReturnType<typeof signedInUser>>;

const MIN = 60_000;

const NEW_PASSWORD = 'a fresh start passphrase';
let ipCounter = 0;
const freshIp = () => `198.19.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const from = (ip = freshIp()) => ({ 'cf-connecting-ip': ip });

const requestReset = (email: string, ip?: string) => api('POST', '/api/auth/password-reset/request', { json: { email }, headers: from(ip) });
const inspect = (token: string) => api('POST', '/api/auth/password-reset/inspect', { json: { token } });
const confirm = (body: Record<string, unknown>) => api('POST', '/api/auth/password-reset/confirm', { json: body, headers: from() });
const login = (email: string, password: string, ip?: string) => api('POST', '/api/auth/login', { json: { email, password }, headers: from(ip) });

async function emailsTo(address: string) {
  const { results } = await env.DB.prepare("SELECT * FROM outbox_messages WHERE channel = 'email' AND address = ? ORDER BY rowid")
    .bind(address)
    .all<Record<string, any>>();
  return results;
}
/** The token of the newest reset link emailed to `address`. */
async function latestToken(address: string) {
  const link = (await emailsTo(address)).at(-1)!.link as string;
  return new URL(link).searchParams.get('token')!;
}
async function resetToken(user: User) {
  expect((await requestReset(user.email)).status).toBe(202);
  return latestToken(user.email);
}
const passwordHash = async (id: string) =>
  (await env.DB.prepare('SELECT password_hash FROM users WHERE id = ?').bind(id).first<{ password_hash: string }>())!.password_hash;
async function keysOf(id: string) {
  const row = await env.DB.prepare('SELECT * FROM user_keys WHERE user_id = ?').bind(id).first<Record<string, any>>();
  return (
    row && {
      public_key: JSON.parse(row.public_key),
      password_wrap: JSON.parse(row.password_wrap),
      recovery_wrap: JSON.parse(row.recovery_wrap),
      created_at: row.created_at,
    }
  );
}
async function withKeys(user: User) {
  const b = bundle();
  expect((await api('PUT', '/api/keys/me', { token: user.token, json: b })).status).toBe(201);
  return b;
}

describe('POST /api/auth/password-reset/request', () => {
  it('emails a single-use link and stores only the token’s hash, valid 30 minutes', async () => {
    const user = await signedInUser();
    const res = await requestReset(user.email.toUpperCase());
    expect(res).toMatchObject({ status: 202, data: { ok: true } });
    const [mail, ...more] = await emailsTo(user.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Reset your Afterword password');
    expect(mail!.recipient_user_id).toBe(user.id);
    expect(mail!.link).toMatch(new RegExp(`^${env.PUBLIC_ORIGIN.replace(/[.]/g, '\\.')}/reset-password\\?token=[A-Za-z0-9_-]{43}$`));
    expect(mail!.text).toContain(mail!.link);
    expect(mail!.text).toContain(`${PASSWORD_RESET_TTL_MINUTES} minutes`);

    const token = await latestToken(user.email);
    const row = await env.DB.prepare('SELECT * FROM password_reset_tokens WHERE user_id = ?').bind(user.id).first<Record<string, any>>();
    expect(row!.token_hash).toBe(await hashSecret(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row!.expires_at - row!.created_at).toBe(PASSWORD_RESET_TTL_MINUTES * MIN);
    expect(row!.used_at).toBeNull();
  });

  it('answers an unknown email exactly like a known one, and sends nothing', async () => {
    const known = await signedInUser();
    const ghost = `nobody-${crypto.randomUUID()}@example.com`;
    const [a, b] = [await requestReset(known.email), await requestReset(ghost)];
    expect({ status: b.status, body: b.text }).toEqual({ status: a.status, body: a.text });
    expect(await emailsTo(ghost)).toEqual([]);
  });

  it('refuses a malformed email with 422', async () => {
    const res = await requestReset('not an email');
    expect(res.status).toBe(422);
    expect(res.data.detail[0].loc).toEqual(['body', 'email']);
  });

  it(`sends at most ${PASSWORD_RESET_EMAILS_PER_HOUR} emails per address per hour, answering 202 all the same`, async () => {
    const user = await signedInUser();
    const t = Date.now();
    for (let i = 0; i < PASSWORD_RESET_EMAILS_PER_HOUR + 2; i++) {
      await expect(requestPasswordReset(servicesAt(t + i * MIN), user.email, freshIp())).resolves.toEqual({ ok: true });
    }
    expect(await emailsTo(user.email)).toHaveLength(PASSWORD_RESET_EMAILS_PER_HOUR);
    await requestPasswordReset(servicesAt(t + 61 * MIN), user.email, freshIp());
    expect(await emailsTo(user.email)).toHaveLength(PASSWORD_RESET_EMAILS_PER_HOUR + 1);
  });

  it(`answers 429 after ${PASSWORD_RESET_REQUESTS_PER_ADDRESS_PER_HOUR} requests from one client address`, async () => {
    const ip = freshIp();
    for (let i = 0; i < PASSWORD_RESET_REQUESTS_PER_ADDRESS_PER_HOUR; i++) {
      expect((await requestReset(`spray${i}-${crypto.randomUUID()}@example.com`, ip)).status).toBe(202);
    }
    const blocked = await requestReset('one-more@example.com', ip);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await requestReset('one-more@example.com')).status).toBe(202); // another address is not affected
  });
});

describe('POST /api/auth/password-reset/inspect', () => {
  it('tells the page the email, whether there are keys, and the recovery wrap — without spending the token', async () => {
    const plain = await signedInUser();
    const plainToken = await resetToken(plain);
    expect(await inspect(plainToken)).toMatchObject({ status: 200, data: { email: plain.email, has_keys: false, recovery_wrap: null } });

    const keyed = await signedInUser();
    const b = await withKeys(keyed);
    const token = await resetToken(keyed);
    const first = await inspect(token);
    expect(first.data).toEqual({ email: keyed.email, has_keys: true, recovery_wrap: b.recovery_wrap });
    expect((await inspect(token)).status).toBe(200);
  });

  it('400s for an unknown or malformed token, 422 for none', async () => {
    expect(await inspect(b64u(32))).toMatchObject({ status: 400, data: { detail: PASSWORD_RESET_ERRORS.invalidToken } });
    expect((await inspect('x'.repeat(201))).status).toBe(422);
    expect((await api('POST', '/api/auth/password-reset/inspect', { json: {} })).status).toBe(422);
  });
});

describe('POST /api/auth/password-reset/confirm', () => {
  it('without keys: sets the password, revokes every session, and spends this and every other open link', async () => {
    const user = await signedInUser();
    const older = await resetToken(user);
    const token = await resetToken(user);
    const res = await confirm({ token, new_password: NEW_PASSWORD });
    expect(res).toMatchObject({ status: 200, data: { ok: true } });
    expect((await api('GET', '/api/auth/me', { token: user.token })).status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(401);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
    // Single use, and the account's other links are spent too.
    for (const t of [token, older]) {
      expect((await confirm({ token: t, new_password: 'another passphrase 3' })).status).toBe(400);
      expect((await inspect(t)).status).toBe(400);
    }
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('with keys and no key_bundle: 422 explaining the choice, and nothing changes', async () => {
    const user = await signedInUser();
    await withKeys(user);
    const token = await resetToken(user);
    const hash = await passwordHash(user.id);
    const res = await confirm({ token, new_password: NEW_PASSWORD });
    expect(res.status).toBe(422);
    expect(res.data.detail).toEqual([{ loc: ['body', 'key_bundle'], msg: PASSWORD_RESET_ERRORS.keyChoice, type: 'e2ee_key_choice' }]);
    expect(await passwordHash(user.id)).toBe(hash);
    expect((await inspect(token)).status).toBe(200);
    expect((await api('GET', '/api/auth/me', { token: user.token })).status).toBe(200);
  });

  it('with the recovery key ({password_wrap}): re-wraps the same key pair', async () => {
    const user = await signedInUser();
    const b = await withKeys(user);
    const token = await resetToken(user);
    const wrap = passwordWrap();
    expect((await confirm({ token, new_password: NEW_PASSWORD, key_bundle: { password_wrap: wrap } })).status).toBe(200);
    expect(await keysOf(user.id)).toMatchObject({ public_key: b.public_key, recovery_wrap: b.recovery_wrap, password_wrap: wrap });
  });

  it('without the recovery key (a whole new bundle): replaces the keys', async () => {
    const user = await signedInUser();
    await withKeys(user);
    const before = await keysOf(user.id);
    const token = await resetToken(user);
    const fresh = bundle();
    expect((await confirm({ token, new_password: NEW_PASSWORD, key_bundle: fresh })).status).toBe(200);
    expect(await keysOf(user.id)).toMatchObject(fresh);
    expect((await keysOf(user.id))!.created_at).toBeGreaterThanOrEqual(before!.created_at);
    const session = (await login(user.email, NEW_PASSWORD)).data.access_token;
    expect((await api('GET', '/api/keys/me', { token: session })).data.public_key).toEqual(fresh.public_key);
  });

  it('creates keys with a whole bundle on an account that had none', async () => {
    const user = await signedInUser();
    const token = await resetToken(user);
    const fresh = bundle();
    expect((await confirm({ token, new_password: NEW_PASSWORD, key_bundle: fresh })).status).toBe(200);
    expect(await keysOf(user.id)).toMatchObject(fresh);
  });

  const bad: [string, (token: string) => Record<string, unknown>, (string | number)[]][] = [
    ['a short password', (token) => ({ token, new_password: 'too short' }), ['body', 'new_password']],
    ['a common password', (token) => ({ token, new_password: 'password123' }), ['body', 'new_password']],
    [
      'half a bundle (public_key without recovery_wrap)',
      (token) => ({ token, new_password: NEW_PASSWORD, key_bundle: { public_key: bundle().public_key, password_wrap: passwordWrap() } }),
      ['body', 'key_bundle', 'recovery_wrap'],
    ],
    [
      'a recovery-HKDF password_wrap',
      (token) => ({ token, new_password: NEW_PASSWORD, key_bundle: { password_wrap: recoveryWrap() } }),
      ['body', 'key_bundle', 'password_wrap'],
    ],
    [
      'an unknown key_bundle field',
      (token) => ({ token, new_password: NEW_PASSWORD, key_bundle: { password_wrap: passwordWrap(), private_key: 'x' } }),
      ['body', 'key_bundle'],
    ],
    [
      '{password_wrap} on an account without keys',
      (token) => ({ token, new_password: NEW_PASSWORD, key_bundle: { password_wrap: passwordWrap() } }),
      ['body', 'key_bundle'],
    ],
  ];
  it.each(bad)('refuses %s with 422, leaving the link usable', async (_name, body, loc) => {
    const user = await signedInUser();
    const token = await resetToken(user);
    const hash = await passwordHash(user.id);
    const res = await confirm(body(token));
    expect(res.status).toBe(422);
    expect(res.data.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
    expect(await passwordHash(user.id)).toBe(hash);
    expect(await keysOf(user.id)).toBeNull();
    expect((await inspect(token)).status).toBe(200);
  });

  it('400s for an unknown token', async () => {
    expect(await confirm({ token: b64u(32), new_password: NEW_PASSWORD })).toMatchObject({ status: 400, data: { detail: PASSWORD_RESET_ERRORS.invalidToken } });
  });

  it('expires the link 30 minutes after it was sent (controlled clock)', async () => {
    const [late, onTime] = await Promise.all([signedInUser(), signedInUser()]);
    const t = Date.now();
    await requestPasswordReset(servicesAt(t), late.email, freshIp());
    await requestPasswordReset(servicesAt(t), onTime.email, freshIp());
    const [lateToken, onTimeToken] = [await latestToken(late.email), await latestToken(onTime.email)];
    const deadline = t + PASSWORD_RESET_TTL_MINUTES * MIN;
    await expect(inspectPasswordReset(servicesAt(deadline - 1), lateToken)).resolves.toMatchObject({ email: late.email });
    await expect(inspectPasswordReset(servicesAt(deadline), lateToken)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      confirmPasswordReset(servicesAt(deadline), { token: lateToken, new_password: NEW_PASSWORD, key_bundle: undefined }, freshIp()),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect((await login(late.email, late.password)).status).toBe(200);
    await expect(
      confirmPasswordReset(servicesAt(deadline - 1), { token: onTimeToken, new_password: NEW_PASSWORD, key_bundle: undefined }, freshIp()),
    ).resolves.toEqual({ ok: true });
    expect((await login(onTime.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('lets only one of two simultaneous uses of a link succeed', async () => {
    const user = await signedInUser();
    const token = await resetToken(user);
    const results = await Promise.all([
      confirm({ token, new_password: 'first racing passphrase' }),
      confirm({ token, new_password: 'second racing passphrase' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = results[0]!.status === 200 ? 'first racing passphrase' : 'second racing passphrase';
    expect((await login(user.email, winner)).status).toBe(200);
  });

  it('lifts a sign-in lockout for the account', async () => {
    const user = await signedInUser();
    const ip = '198.51.100.62';
    for (let i = 0; i < LOGIN_LIMITS.pair.max; i++) await login(user.email, `wrong ${i} password`, ip);
    expect((await login(user.email, user.password, ip)).status).toBe(429);
    const token = await resetToken(user);
    expect((await confirm({ token, new_password: NEW_PASSWORD })).status).toBe(200);
    expect((await login(user.email, NEW_PASSWORD, ip)).status).toBe(200);
  });
});

describe('password reset over tRPC', () => {
  it('auth.requestPasswordReset, auth.inspectPasswordReset and auth.confirmPasswordReset', async () => {
    const user = await signedInUser();
    const b = await withKeys(user);
    const requested = await api('POST', '/api/trpc/auth.requestPasswordReset', { json: { email: user.email }, headers: from() });
    expect(requested.data.result.data).toEqual({ ok: true });
    const token = await latestToken(user.email);
    const inspected = await api('POST', '/api/trpc/auth.inspectPasswordReset', { json: { token } });
    expect(inspected.data.result.data).toEqual({ email: user.email, has_keys: true, recovery_wrap: b.recovery_wrap });
    const refused = await api('POST', '/api/trpc/auth.confirmPasswordReset', { json: { token, new_password: NEW_PASSWORD }, headers: from() });
    expect(refused.status).toBe(422);
    expect(refused.data.error.data.detail[0].loc).toEqual(['body', 'key_bundle']);
    const ok = await api('POST', '/api/trpc/auth.confirmPasswordReset', {
      json: { token, new_password: NEW_PASSWORD, key_bundle: { password_wrap: passwordWrap() } },
      headers: from(),
    });
    expect(ok.data.result.data).toEqual({ ok: true });
    const unknown = await api('POST', '/api/trpc/auth.inspectPasswordReset', { json: { token } });
    expect(unknown.status).toBe(400);
  });
});
