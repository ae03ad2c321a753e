import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, newAccount, signedInUser } from './helpers/api';

describe('registration', () => {
  it('creates an account with a UUID and answers 201 with the public profile', async () => {
    const account = newAccount();
    const res = await api('POST', '/api/auth/register', { json: account });
    expect(res.status).toBe(201);
    expect(res.data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.data).toMatchObject({ email: account.email, data_policy_region: 'INTL-General', legal_jurisdiction: null, plan: 'free' });
    expect(res.data).not.toHaveProperty('password_hash');
  });

  it('trims and lower-cases the email, and refuses a second account for it with 409', async () => {
    const account = newAccount();
    const first = await api('POST', '/api/auth/register', { json: { ...account, email: `  ${account.email.toUpperCase()}  ` } });
    expect(first.status).toBe(201);
    expect(first.data.email).toBe(account.email);
    const second = await api('POST', '/api/auth/register', { json: account });
    expect(second.status).toBe(409);
    expect(second.data).toEqual({ detail: 'An account with this email already exists' });
  });

  it('stores only a salted scrypt hash of the password', async () => {
    const account = newAccount();
    await api('POST', '/api/auth/register', { json: account });
    const row = await env.DB.prepare('SELECT password_hash FROM users WHERE email = ?').bind(account.email).first<{ password_hash: string }>();
    expect(row?.password_hash).toMatch(/^scrypt\$16384\$8\$5\$[\w-]{22}\$[\w-]{43}$/);
    expect(row?.password_hash).not.toContain(account.password);
  });

  it.each([
    ['US-HIPAA', 'CA'],
    ['US-HIPAA', 'PR'],
    ['EU-GDPR', 'Germany'],
    ['EU-GDPR', 'Czechia'],
    ['INTL-General', 'Ontario, Canada'],
    ['INTL-General', undefined],
  ])('accepts region %s with jurisdiction %s', async (region, jurisdiction) => {
    const res = await api('POST', '/api/auth/register', { json: newAccount({ data_policy_region: region, legal_jurisdiction: jurisdiction }) });
    expect(res.status).toBe(201);
    expect(res.data.legal_jurisdiction).toBe(jurisdiction ?? null);
  });

  it('treats a blank jurisdiction as absent', async () => {
    const res = await api('POST', '/api/auth/register', { json: newAccount({ legal_jurisdiction: '   ' }) });
    expect(res.status).toBe(201);
    expect(res.data.legal_jurisdiction).toBeNull();
  });

  it.each([
    ['US-HIPAA without a state', { data_policy_region: 'US-HIPAA' }],
    ['US-HIPAA with a state not on the list', { data_policy_region: 'US-HIPAA', legal_jurisdiction: 'ZZ' }],
    ['US-HIPAA with an EU member state', { data_policy_region: 'US-HIPAA', legal_jurisdiction: 'France' }],
    ['EU-GDPR without a member state', { data_policy_region: 'EU-GDPR' }],
    ['EU-GDPR with a non-member', { data_policy_region: 'EU-GDPR', legal_jurisdiction: 'Norway' }],
    ['INTL-General with 101 characters', { data_policy_region: 'INTL-General', legal_jurisdiction: 'x'.repeat(101) }],
  ])('refuses %s with 422 on legal_jurisdiction', async (_name, overrides) => {
    const res = await api('POST', '/api/auth/register', { json: newAccount(overrides) });
    expect(res.status).toBe(422);
    expect(res.data.detail).toEqual([expect.objectContaining({ loc: ['body', 'legal_jurisdiction'], type: 'custom' })]);
  });

  it('refuses an unknown region with 422', async () => {
    const res = await api('POST', '/api/auth/register', { json: newAccount({ data_policy_region: 'MARS' }) });
    expect(res.status).toBe(422);
    expect(res.data.detail[0].loc).toEqual(['body', 'data_policy_region']);
  });

  it.each([
    ['a short password', { password: 'short' }, 'password'],
    ['a password over 256 characters', { password: 'x'.repeat(257) }, 'password'],
    ['a common password', { password: 'qwertyuiop' }, 'password'],
    ['a bad email', { email: 'not-an-email' }, 'email'],
    ['an email of the wrong type', { email: 42 }, 'email'],
  ])('refuses %s with 422', async (_name, overrides, field) => {
    const res = await api('POST', '/api/auth/register', { json: newAccount(overrides) });
    expect(res.status).toBe(422);
    expect(res.data.detail.map((d: { loc: string[] }) => d.loc)).toContainEqual(['body', field]);
    expect(res.data.detail[0]).toEqual({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
  });

  it('lists every missing field at once', async () => {
    const res = await api('POST', '/api/auth/register', { json: {} });
    expect(res.status).toBe(422);
    const locs = res.data.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.email', 'body.password', 'body.data_policy_region']));
  });

  it('leaves nothing behind when registration fails', async () => {
    const account = newAccount({ password: 'short' });
    await api('POST', '/api/auth/register', { json: account });
    const row = await env.DB.prepare('SELECT count(*) AS n FROM users WHERE email = ?').bind(account.email).first<{ n: number }>();
    expect(row?.n).toBe(0);
  });
});

describe('login, me and logout', () => {
  it('logs in with {access_token, token_type, expires_in} and the token opens /me', async () => {
    const account = newAccount({ data_policy_region: 'EU-GDPR', legal_jurisdiction: 'Ireland' });
    const reg = await api('POST', '/api/auth/register', { json: account });
    const login = await api('POST', '/api/auth/login', { json: { email: account.email.toUpperCase(), password: account.password } });
    expect(login.status).toBe(200);
    expect(login.data).toEqual({ access_token: expect.stringMatching(/^[\w-]{43}$/), token_type: 'bearer', expires_in: 2592000 });
    const me = await api('GET', '/api/auth/me', { token: login.data.access_token });
    expect(me.status).toBe(200);
    expect(me.data).toEqual({
      id: reg.data.id,
      email: account.email,
      data_policy_region: 'EU-GDPR',
      legal_jurisdiction: 'Ireland',
      plan: 'free',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('stores only the hash of a session token', async () => {
    const user = await signedInUser();
    const rows = await env.DB.prepare('SELECT token_hash FROM sessions WHERE user_id = ?').bind(user.id).all<{ token_hash: string }>();
    expect(rows.results).toHaveLength(1);
    expect(rows.results[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows.results[0]!.token_hash).not.toBe(user.token);
  });

  it('answers a wrong password and an unknown email with the same 401', async () => {
    const user = await signedInUser();
    const wrong = await api('POST', '/api/auth/login', { json: { email: user.email, password: 'wrong password 123' } });
    const unknown = await api('POST', '/api/auth/login', { json: { email: 'nobody@example.com', password: 'wrong password 123' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.data).toEqual({ detail: 'Incorrect email or password' });
    expect(unknown.data).toEqual(wrong.data);
  });

  it('refuses /me without a token, with a forged token and with a malformed header', async () => {
    for (const headers of [{}, { authorization: 'Bearer forged-token-value' }, { authorization: 'Basic abc' }] as Record<string, string>[]) {
      const res = await api('GET', '/api/auth/me', { headers });
      expect(res.status).toBe(401);
      expect(res.data).toEqual({ detail: 'Not authenticated' });
    }
  });

  it('revokes the token on the server at logout', async () => {
    const user = await signedInUser();
    expect((await api('POST', '/api/auth/logout', { token: user.token })).status).toBe(200);
    expect((await api('GET', '/api/auth/me', { token: user.token })).status).toBe(401);
    expect((await api('POST', '/api/auth/logout', { token: user.token })).status).toBe(401);
  });

  it('keeps other sessions of the same user open at logout', async () => {
    const user = await signedInUser();
    const second = await api('POST', '/api/auth/login', { json: { email: user.email, password: user.password } });
    await api('POST', '/api/auth/logout', { token: user.token });
    expect((await api('GET', '/api/auth/me', { token: second.data.access_token })).status).toBe(200);
  });

  it('refuses an expired session', async () => {
    const user = await signedInUser();
    await env.DB.prepare('UPDATE sessions SET expires_at = ? WHERE user_id = ?')
      .bind(Date.now() - 1000, user.id)
      .run();
    expect((await api('GET', '/api/auth/me', { token: user.token })).status).toBe(401);
  });
});
