// Accounts over HTTP: register, duplicate, login, me, logout revocation, failed-login throttle.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { api, login, register, uniqueEmail, PASSWORD } from '../support/http.mjs';

test('register → 201 profile; email trimmed and lower-cased; duplicate → 409', async () => {
  const email = uniqueEmail('Mixed.Case');
  const res = await api('POST', '/api/auth/register', {
    body: { email: `  ${email.toUpperCase()} `, password: PASSWORD, data_policy_region: 'EU-GDPR', legal_jurisdiction: 'Germany' },
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.json.email, email.toLowerCase());
  assert.match(res.json.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  assert.equal(res.json.data_policy_region, 'EU-GDPR');
  assert.equal(res.json.legal_jurisdiction, 'Germany');
  assert.equal(typeof res.json.plan, 'string');
  assert.ok(res.json.created_at);
  assert.equal(res.json.password_hash, undefined);
  assert.equal(res.json.password, undefined);

  const dup = await api('POST', '/api/auth/register', { body: { email, password: PASSWORD, data_policy_region: 'INTL-General' } });
  assert.equal(dup.status, 409);
  assert.equal(typeof dup.json.detail, 'string');
});

test('weak passwords are refused with 422', async () => {
  for (const password of ['short1', 'password123456'.slice(0, 9), '1234567890', 'qwertyuiop']) {
    const res = await api('POST', '/api/auth/register', { body: { email: uniqueEmail('weak'), password, data_policy_region: 'INTL-General' } });
    assert.equal(res.status, 422, `${password} → ${res.status} ${res.text}`);
  }
});

test('login → bearer token that opens /api/auth/me', async () => {
  const acct = await register({ data_policy_region: 'US-HIPAA', legal_jurisdiction: 'CA' });
  const res = await api('POST', '/api/auth/login', { body: { email: acct.email, password: PASSWORD } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.token_type, 'bearer');
  assert.equal(typeof res.json.access_token, 'string');
  assert.ok(res.json.access_token.length >= 32);
  assert.ok(Number.isInteger(res.json.expires_in) && res.json.expires_in > 0);
  const me = await api('GET', '/api/auth/me', { token: res.json.access_token });
  assert.equal(me.status, 200);
  assert.deepEqual(Object.keys(me.json).sort(), ['created_at', 'data_policy_region', 'email', 'id', 'legal_jurisdiction', 'plan']);
  assert.equal(me.json.id, acct.user.id);
  assert.equal(me.json.email, acct.email);
  assert.equal(me.json.legal_jurisdiction, 'CA');
});

test('wrong password and unknown email get the same generic 401', async () => {
  const acct = await register();
  const wrong = await api('POST', '/api/auth/login', { body: { email: acct.email, password: 'not-the-password-1' } });
  const unknown = await api('POST', '/api/auth/login', { body: { email: uniqueEmail('nobody'), password: PASSWORD } });
  assert.equal(wrong.status, 401);
  assert.equal(unknown.status, 401);
  assert.equal(wrong.json.detail, 'Incorrect email or password');
  assert.equal(unknown.json.detail, wrong.json.detail);
});

test('logout revokes the token on the server; other sessions stay valid', async () => {
  const acct = await register();
  const a = await login(acct.email);
  const b = await login(acct.email);
  assert.notEqual(a, b);
  assert.equal((await api('GET', '/api/auth/me', { token: a })).status, 200);
  const out = await api('POST', '/api/auth/logout', { token: a });
  assert.equal(out.status, 200, out.text);
  const after = await api('GET', '/api/auth/me', { token: a });
  assert.equal(after.status, 401);
  assert.equal(typeof after.json.detail, 'string');
  assert.equal((await api('POST', '/api/auth/logout', { token: a })).status, 401, 'a revoked token cannot log out again');
  assert.equal((await api('GET', '/api/auth/me', { token: b })).status, 200, 'the other session is untouched');
});

test('logout and me without a token → 401', async () => {
  assert.equal((await api('POST', '/api/auth/logout')).status, 401);
  assert.equal((await api('GET', '/api/auth/me')).status, 401);
});

test('failed logins are throttled per email: 429 with Retry-After, even for the right password', async () => {
  const acct = await register();
  for (let i = 1; i <= 5; i++) {
    const res = await api('POST', '/api/auth/login', { body: { email: acct.email, password: `wrong-password-${i}` } });
    assert.equal(res.status, 401, `attempt ${i}: ${res.status} ${res.text}`);
  }
  const blocked = await api('POST', '/api/auth/login', { body: { email: acct.email, password: 'wrong-password-6' } });
  assert.equal(blocked.status, 429, blocked.text);
  const retryAfter = Number(blocked.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 15 * 60, `Retry-After: ${blocked.headers.get('retry-after')}`);
  assert.equal(typeof blocked.json.detail, 'string');

  const right = await api('POST', '/api/auth/login', { body: { email: acct.email, password: PASSWORD } });
  assert.equal(right.status, 429, 'the right password is throttled too while the window lasts');
  // Another account from the same address is not affected by this email's window.
  const other = await register();
  assert.equal(typeof (await login(other.email)), 'string');
});
