import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { changePassword, PASSWORD_CHANGE_ERRORS } from '../src/domains/auth/change-password';
import { LOGIN_LIMITS } from '../src/domains/auth/login-throttle';
import { createServiceContext } from '../src/wiring/service-context';
import { b64u, keyBundle as bundle, passwordWrap, recoveryWrap } from './helpers/e2ee';
import { api, signedInUser } from './helpers/api';

type User = Awaited<ReturnType<typeof signedInUser>>;

const NEW_PASSWORD = 'a brand new passphrase 2';
let ipCounter = 0;
const freshAddress = () => ({ 'cf-connecting-ip': `198.18.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

const login = (email: string, password: string) => api('POST', '/api/auth/login', { json: { email, password }, headers: freshAddress() });
const change = (user: User, body: Record<string, unknown>, token = user.token) =>
  api('POST', '/api/auth/password', { token, json: body, headers: freshAddress() });
const me = (token: string) => api('GET', '/api/auth/me', { token });
const passwordHash = async (id: string) =>
  (await env.DB.prepare('SELECT password_hash FROM users WHERE id = ?').bind(id).first<{ password_hash: string }>())!.password_hash;
const storedWrap = async (id: string) => {
  const row = await env.DB.prepare('SELECT password_wrap, recovery_wrap, public_key FROM user_keys WHERE user_id = ?').bind(id).first<Record<string, string>>();
  return row && { password_wrap: JSON.parse(row.password_wrap!), recovery_wrap: JSON.parse(row.recovery_wrap!), public_key: JSON.parse(row.public_key!) };
};

/** A second session of the same account. */
async function secondSession(user: User) {
  const res = await login(user.email, user.password);
  return res.data.access_token as string;
}

describe('POST /api/auth/password', () => {
  it('changes the password, keeps this session and revokes the others', async () => {
    const user = await signedInUser();
    const other = await secondSession(user);
    const res = await change(user, { current_password: user.password, new_password: NEW_PASSWORD });
    expect(res).toMatchObject({ status: 200, data: { ok: true } });
    expect((await me(user.token)).status).toBe(200);
    expect((await me(other)).status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(401);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('with keys: requires password_wrap and stores it with the password in one step; the rest of the bundle stays', async () => {
    const user = await signedInUser();
    const b = bundle();
    await api('PUT', '/api/keys/me', { token: user.token, json: b });
    const hash = await passwordHash(user.id);
    const missing = await change(user, { current_password: user.password, new_password: NEW_PASSWORD });
    expect(missing.status).toBe(422);
    expect(missing.data.detail).toEqual([{ loc: ['body', 'password_wrap'], msg: PASSWORD_CHANGE_ERRORS.wrapRequired, type: 'missing' }]);
    expect(await passwordHash(user.id)).toBe(hash);

    const wrap = passwordWrap();
    expect((await change(user, { current_password: user.password, new_password: NEW_PASSWORD, password_wrap: wrap })).status).toBe(200);
    expect(await storedWrap(user.id)).toEqual({ password_wrap: wrap, recovery_wrap: b.recovery_wrap, public_key: b.public_key });
    expect((await api('GET', '/api/keys/me', { token: user.token })).data.password_wrap).toEqual(wrap);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('without keys: refuses a password_wrap (there is nothing to re-wrap)', async () => {
    const user = await signedInUser();
    const res = await change(user, { current_password: user.password, new_password: NEW_PASSWORD, password_wrap: passwordWrap() });
    expect(res.status).toBe(422);
    expect(res.data.detail).toEqual([{ loc: ['body', 'password_wrap'], msg: PASSWORD_CHANGE_ERRORS.noKeysToWrap, type: 'no_keys' }]);
  });

  const bad: [string, (u: User) => Record<string, unknown>, (string | number)[], string | undefined][] = [
    [
      'a wrong current password',
      () => ({ current_password: 'not my password', new_password: NEW_PASSWORD }),
      ['body', 'current_password'],
      PASSWORD_CHANGE_ERRORS.wrongCurrent,
    ],
    ['no current password', () => ({ new_password: NEW_PASSWORD }), ['body', 'current_password'], undefined],
    [
      'a new password of 9 characters',
      (u) => ({ current_password: u.password, new_password: 'short one' }),
      ['body', 'new_password'],
      'Password must be at least 10 characters',
    ],
    [
      'a new password of 257 characters',
      (u) => ({ current_password: u.password, new_password: 'x'.repeat(257) }),
      ['body', 'new_password'],
      'Password must be at most 256 characters',
    ],
    ['a common new password', (u) => ({ current_password: u.password, new_password: 'password123' }), ['body', 'new_password'], PASSWORD_CHANGE_ERRORS.common],
    [
      'the same password again',
      (u) => ({ current_password: u.password, new_password: u.password }),
      ['body', 'new_password'],
      PASSWORD_CHANGE_ERRORS.samePassword,
    ],
    [
      'a password_wrap using the recovery HKDF',
      (u) => ({ current_password: u.password, new_password: NEW_PASSWORD, password_wrap: recoveryWrap() }),
      ['body', 'password_wrap'],
      'password_wrap must use PBKDF2',
    ],
    [
      'a password_wrap with a short ct',
      (u) => ({ current_password: u.password, new_password: NEW_PASSWORD, password_wrap: { ...passwordWrap(), ct: b64u(50) } }),
      ['body', 'password_wrap', 'ct'],
      undefined,
    ],
  ];
  it.each(bad)('refuses %s with 422 and changes nothing', async (_name, body, loc, msg) => {
    const user = await signedInUser();
    const other = await secondSession(user);
    const hash = await passwordHash(user.id);
    const res = await change(user, body(user));
    expect(res.status).toBe(422);
    expect(res.data.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc, ...(msg ? { msg } : {}) })]));
    expect(await passwordHash(user.id)).toBe(hash);
    expect((await me(other)).status).toBe(200);
  });

  it('counts wrong current passwords as failed sign-ins (429 after the login limit from that address)', async () => {
    const user = await signedInUser();
    const fromOneAddress = (body: Record<string, unknown>) =>
      api('POST', '/api/auth/password', { token: user.token, json: body, headers: { 'cf-connecting-ip': '198.51.100.61' } });
    for (let i = 0; i < LOGIN_LIMITS.pair.max; i++) {
      expect((await fromOneAddress({ current_password: `wrong guess ${i}`, new_password: NEW_PASSWORD })).status).toBe(422);
    }
    const blocked = await fromOneAddress({ current_password: user.password, new_password: NEW_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('needs a session (401), and tells a Google-only account to use the reset flow', async () => {
    expect((await api('POST', '/api/auth/password', { json: { current_password: 'x', new_password: NEW_PASSWORD } })).status).toBe(401);
    const user = await signedInUser();
    await env.DB.prepare('UPDATE users SET password_hash = NULL WHERE id = ?').bind(user.id).run();
    const res = await change(user, { current_password: 'anything', new_password: NEW_PASSWORD });
    expect(res.status).toBe(422);
    expect(res.data.detail[0].msg).toBe(PASSWORD_CHANGE_ERRORS.noPassword);
  });

  it('writes nothing when another change won the race (409): not the wrap, not the sessions', async () => {
    const user = await signedInUser();
    const other = await secondSession(user);
    const b = bundle();
    await api('PUT', '/api/keys/me', { token: user.token, json: b });
    const ctx = createServiceContext(env);
    const { results } = await env.DB.prepare('SELECT * FROM users WHERE id = ?').bind(user.id).all<Record<string, any>>();
    const row = results[0]!;
    const staleUser = {
      ...row,
      created_at: new Date(row.created_at),
      updated_at: new Date(row.updated_at),
      phone_verified_at: null,
      death_confirmed_at: null,
      last_sign_in_at: null,
      archived_at: null,
    } as never;
    // Another change lands first (the user row the request loaded is now stale).
    expect((await change(user, { current_password: user.password, new_password: NEW_PASSWORD, password_wrap: passwordWrap() })).status).toBe(200);
    const afterFirst = await storedWrap(user.id);
    // Called from no known session: had its revocation run, it would end user.token's session too.
    await expect(
      changePassword(
        ctx,
        staleUser,
        crypto.randomUUID(),
        { current_password: user.password, new_password: 'yet another passphrase', password_wrap: passwordWrap() as never },
        '198.18.200.1',
      ),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await storedWrap(user.id)).toEqual(afterFirst);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
    expect((await me(user.token)).status).toBe(200);
    expect((await me(other)).status).toBe(401); // revoked by the first change
  });

  it('works over tRPC (auth.changePassword) with the same rules', async () => {
    const user = await signedInUser();
    const wrong = await api('POST', '/api/trpc/auth.changePassword', {
      token: user.token,
      json: { current_password: 'nope nope', new_password: NEW_PASSWORD },
      headers: freshAddress(),
    });
    expect(wrong.status).toBe(422);
    expect(wrong.data.error.data.detail[0]).toMatchObject({ loc: ['body', 'current_password'], msg: PASSWORD_CHANGE_ERRORS.wrongCurrent });
    const ok = await api('POST', '/api/trpc/auth.changePassword', {
      token: user.token,
      json: { current_password: user.password, new_password: NEW_PASSWORD },
      headers: freshAddress(),
    });
    expect(ok.status).toBe(200);
    expect(ok.data.result.data).toEqual({ ok: true });
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
  });
});
