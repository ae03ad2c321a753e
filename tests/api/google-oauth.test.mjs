// Google sign-in over plain HTTP with a cookie jar, against the fake OIDC provider in
// tests/support/fake-google.mjs: start → authorize (auto-consent) → callback → /login#access_token=…
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { fakeGoogleControl } from '../support/fake-google.mjs';
import { CookieJar, api, origin, register, url } from '../support/http.mjs';

const google = fakeGoogleControl();
const newIdentity = (extra = {}) => ({ sub: `sub-${randomUUID()}`, email: `g.${randomUUID().slice(0, 10)}@gmail.test`, email_verified: true, ...extra });

/** The login page's random client state (web/src/lib/oauth-fragment.ts): 32 bytes, base64url. */
const newClientState = () => randomBytes(32).toString('base64url');

/** Runs the whole redirect dance, as the login page starts it; returns the final Location and what was seen on the way. */
async function googleSignIn({ tamper, clientState = newClientState() } = {}) {
  const jar = new CookieJar();
  const start = await jar.fetch(url(`/api/auth/google?client_state=${clientState}`));
  assert.equal(start.status, 302);
  const authorizeUrl = new URL(start.headers.get('location'));
  const consent = await fetch(authorizeUrl, { redirect: 'manual' });
  assert.equal(consent.status, 302, `fake authorize refused: ${await consent.text()}`);
  const callback = new URL(consent.headers.get('location'));
  if (tamper) tamper(callback);
  const cookieBefore = jar.header(callback.toString());
  const done = await jar.fetch(callback.toString());
  assert.equal(done.status, 302, `callback status ${done.status}: ${await done.text()}`);
  const location = new URL(done.headers.get('location'), origin());
  return { start, authorizeUrl, callback, location, jar, cookieBefore, clientState };
}

const fragment = (loc) => new URLSearchParams(loc.hash.slice(1));

test('GET /api/auth/google redirects to the provider with PKCE S256, state and an HttpOnly cookie', async () => {
  const jar = new CookieJar();
  const res = await jar.fetch(url('/api/auth/google'));
  assert.equal(res.status, 302);
  const loc = new URL(res.headers.get('location'));
  assert.equal(loc.origin, google.origin);
  assert.equal(loc.pathname, '/authorize');
  const q = loc.searchParams;
  assert.equal(q.get('response_type'), 'code');
  assert.equal(q.get('client_id'), process.env.FAKE_GOOGLE_CLIENT_ID);
  assert.equal(q.get('redirect_uri'), `${origin()}/api/auth/google/callback`);
  assert.equal(q.get('code_challenge_method'), 'S256');
  assert.match(q.get('code_challenge'), /^[A-Za-z0-9_-]{43}$/);
  assert.ok((q.get('state') ?? '').length >= 16, 'state has entropy');
  assert.deepEqual(q.get('scope').split(' ').sort(), ['email', 'openid']);
  const setCookie = res.headers.getSetCookie().join('\n');
  assert.match(setCookie, /HttpOnly/i);
  assert.match(setCookie, /SameSite=Lax/i);
  // Two starts never share a state.
  const again = new URL((await fetch(url('/api/auth/google'), { redirect: 'manual' })).headers.get('location'));
  assert.notEqual(again.searchParams.get('state'), q.get('state'));
  assert.notEqual(again.searchParams.get('code_challenge'), q.get('code_challenge'));
});

test('a verified Google account signs in: /login#access_token=…&state=… opens /api/auth/me', async () => {
  const who = newIdentity();
  await google.queueIdentity(who);
  const { location, jar, clientState } = await googleSignIn();
  assert.equal(location.origin, origin());
  assert.equal(location.pathname, '/login');
  const f = fragment(location);
  assert.equal(f.get('token_type'), 'bearer');
  assert.equal(f.get('state'), clientState, "the login page's state comes back with the token");
  assert.ok(Number(f.get('expires_in')) > 0);
  assert.equal(location.search, '', 'the token travels only in the fragment');
  const me = await api('GET', '/api/auth/me', { token: f.get('access_token') });
  assert.equal(me.status, 200, me.text);
  assert.equal(me.json.email, who.email);
  assert.equal(me.json.data_policy_region, 'INTL-General');
  assert.equal(jar.get('afw_google_oauth'), undefined, 'the flow cookie is cleared after use');
  // The worker really redeemed the code with PKCE at the token endpoint.
  const log = await google.log();
  assert.ok(log.some((e) => e.method === 'POST' && e.path === '/token'));
});

test('the same Google subject twice yields the same user (and two different sessions)', async () => {
  const who = newIdentity();
  await google.queueIdentity(who);
  const first = fragment((await googleSignIn()).location).get('access_token');
  await google.queueIdentity(who);
  const second = fragment((await googleSignIn()).location).get('access_token');
  assert.ok(first && second);
  assert.notEqual(first, second);
  const [a, b] = await Promise.all([api('GET', '/api/auth/me', { token: first }), api('GET', '/api/auth/me', { token: second })]);
  assert.equal(a.status, 200);
  assert.equal(a.json.id, b.json.id);
});

test('a verified Google email that already has a password account signs into that account', async () => {
  const acct = await register();
  await google.queueIdentity(newIdentity({ email: acct.email }));
  const token = fragment((await googleSignIn()).location).get('access_token');
  const me = await api('GET', '/api/auth/me', { token });
  assert.equal(me.status, 200);
  assert.equal(me.json.id, acct.user.id);
});

test('an unverified Google email is refused: /login#error=…, no account created', async () => {
  const who = newIdentity({ email_verified: false });
  await google.queueIdentity(who);
  const { location, clientState } = await googleSignIn();
  assert.equal(location.pathname, '/login');
  const f = fragment(location);
  assert.ok(f.get('error'), `expected #error, got ${location.hash}`);
  assert.equal(f.get('state'), clientState, 'the error carries the state too');
  assert.equal(f.get('access_token'), null);
  // The email is still free for a normal registration: nothing was created.
  const reg = await api('POST', '/api/auth/register', { body: { email: who.email, password: 'Correct-Horse-Battery-42', data_policy_region: 'INTL-General' } });
  assert.equal(reg.status, 201, reg.text);
});

test('a tampered state is refused before the code is redeemed', async () => {
  const before = (await google.log()).filter((e) => e.path === '/token').length;
  const { location } = await googleSignIn({ tamper: (cb) => cb.searchParams.set('state', `${cb.searchParams.get('state')}x`) });
  assert.equal(location.pathname, '/login');
  assert.ok(fragment(location).get('error'));
  assert.equal(fragment(location).get('access_token'), null);
  const after = (await google.log()).filter((e) => e.path === '/token').length;
  assert.equal(after, before, 'no token request was made');
});

test('a callback without the flow cookie is refused', async () => {
  const jar = new CookieJar();
  const start = await jar.fetch(url('/api/auth/google'));
  const consent = await fetch(start.headers.get('location'), { redirect: 'manual' });
  const res = await fetch(consent.headers.get('location'), { redirect: 'manual' }); // no cookie sent
  assert.equal(res.status, 302);
  const loc = new URL(res.headers.get('location'), origin());
  assert.equal(loc.pathname, '/login');
  assert.ok(fragment(loc).get('error'));
});

test('replaying a used callback (same code, same cookie) is refused', async () => {
  await google.queueIdentity(newIdentity());
  const { callback, cookieBefore, location } = await googleSignIn();
  assert.ok(fragment(location).get('access_token'));
  const replay = await fetch(callback, { redirect: 'manual', headers: { cookie: cookieBefore } });
  assert.equal(replay.status, 302);
  const loc = new URL(replay.headers.get('location'), origin());
  assert.ok(fragment(loc).get('error'), `replay should fail, got ${loc.hash.slice(0, 40)}`);
  assert.equal(fragment(loc).get('access_token'), null);
});

test('an error answer from the provider (user denied) lands on /login#error', async () => {
  const jar = new CookieJar();
  const start = await jar.fetch(url('/api/auth/google'));
  const state = new URL(start.headers.get('location')).searchParams.get('state');
  const res = await jar.fetch(url(`/api/auth/google/callback?error=access_denied&state=${encodeURIComponent(state)}`));
  assert.equal(res.status, 302);
  const loc = new URL(res.headers.get('location'), origin());
  assert.equal(loc.pathname, '/login');
  assert.ok(fragment(loc).get('error'));
});

test('GET /api/auth/google refuses a client_state that is not 22 to 128 URL-safe characters (422, no cookie)', async () => {
  for (const bad of ['short', 'x'.repeat(129), `${'x'.repeat(30)}.${'y'.repeat(30)}`]) {
    const res = await api('GET', `/api/auth/google?client_state=${encodeURIComponent(bad)}`);
    assert.equal(res.status, 422, `${bad}: ${res.text}`);
    assert.deepEqual(res.json.detail[0].loc, ['query', 'client_state']);
    assert.equal(res.headers.getSetCookie().length, 0);
  }
});
