import { env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../src/app';
import { api } from './helpers/api';

// Google sign-in through the real routes, against the fake OIDC provider (test/peers/google.ts).
// What is checked here is the hand-back to the login page: the `client_state` the page started with
// comes back in the `/login#…` fragment, next to the token or the error, and nothing else gets through.
const google = inject('googlePeer');
type Env = typeof env;
const googleEnv = { ...env, ...google.workerVars, PUBLIC_ORIGIN: google.publicOrigin } as unknown as Env;

/** A browser-like navigation to the Worker configured for the fake provider; redirects are not followed. */
function navigate(pathAndQuery: string, cookie?: string) {
  return createApp().request(`${google.publicOrigin}${pathAndQuery}`, { headers: cookie ? { cookie } : {} }, googleEnv);
}

async function nextIdentity(extra: { email_verified?: boolean } = {}) {
  const identity = { sub: `sub-${crypto.randomUUID()}`, email: `g.${crypto.randomUUID().slice(0, 10)}@gmail.test`, email_verified: true, ...extra };
  const res = await fetch(`${google.origin}/_control/identities`, { method: 'POST', body: JSON.stringify(identity) });
  expect(res.status).toBe(200);
  return identity;
}

/** A page-made client state: 32 random bytes, base64url (what the login page sends). */
function clientState() {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** Start → provider consent → callback; returns the fragment of the final `/login#…` redirect. */
async function signIn(query = '', { tamper }: { tamper?: (callback: URL) => void } = {}) {
  const start = await navigate(`/api/auth/google${query}`);
  expect(start.status).toBe(302);
  const cookie = start.headers.get('set-cookie')!.split(';')[0]!;
  const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const callback = new URL(consent.headers.get('location')!);
  tamper?.(callback);
  const done = await navigate(callback.pathname + callback.search, cookie);
  expect(done.status).toBe(302);
  const landing = new URL(done.headers.get('location')!, google.publicOrigin);
  expect(landing.pathname).toBe('/login');
  expect(landing.search).toBe('');
  return new URLSearchParams(landing.hash.slice(1));
}

describe('Google sign-in hands the login page its own state back', () => {
  it("returns the page's client_state next to the token, and the token is the signed-in account's", async () => {
    const who = await nextIdentity();
    const state = clientState();
    const fragment = await signIn(`?client_state=${state}`);
    expect(fragment.get('state')).toBe(state);
    expect(fragment.get('token_type')).toBe('bearer');
    const me = await api('GET', '/api/auth/me', { token: fragment.get('access_token')! });
    expect(me.status).toBe(200);
    expect(me.data.email).toBe(who.email);
  });

  it("returns the page's client_state with an error too (an unverified email)", async () => {
    await nextIdentity({ email_verified: false });
    const state = clientState();
    const fragment = await signIn(`?client_state=${state}`);
    expect(fragment.get('access_token')).toBeNull();
    expect(fragment.get('error')).toBe('Google sign-in failed. Please try again.');
    expect(fragment.get('state')).toBe(state);
  });

  it("returns the page's client_state when the provider's state was tampered with, and no token", async () => {
    await nextIdentity();
    const state = clientState();
    const fragment = await signIn(`?client_state=${state}`, { tamper: (cb) => cb.searchParams.set('state', 'forged-provider-state') });
    expect(fragment.get('access_token')).toBeNull();
    expect(fragment.get('error')).toBeTruthy();
    expect(fragment.get('state')).toBe(state);
  });

  it('adds no state when the flow was started without one (the login page then refuses the token)', async () => {
    await nextIdentity();
    const fragment = await signIn();
    expect(fragment.get('access_token')).toBeTruthy();
    expect(fragment.has('state')).toBe(false);
  });

  it('refuses a client_state that is not 22 to 128 URL-safe characters, before leaving for Google', async () => {
    for (const bad of ['too-short', 'a'.repeat(129), `${'a'.repeat(30)}.${'b'.repeat(30)}`, `${'a'.repeat(30)} ${'b'.repeat(30)}`, `${'a'.repeat(30)}%2B`]) {
      const res = await navigate(`/api/auth/google?client_state=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(422);
      expect(res.headers.get('set-cookie'), bad).toBeNull();
      const body = (await res.json()) as { detail: { loc: string[] }[] };
      expect(body.detail[0]!.loc).toEqual(['query', 'client_state']);
    }
  });

  it("reads Google's keys once and reuses them for the next sign-ins (jose's remote key set, per isolate)", async () => {
    const keyFetches = async () =>
      ((await (await fetch(`${google.origin}/_control/log`)).json()) as { path: string }[]).filter((e) => e.path === '/jwks').length;
    await nextIdentity();
    expect((await signIn(`?client_state=${clientState()}`)).get('access_token')).toBeTruthy();
    const afterFirst = await keyFetches();
    expect(afterFirst).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++) {
      await nextIdentity();
      expect((await signIn(`?client_state=${clientState()}`)).get('access_token')).toBeTruthy();
    }
    expect(await keyFetches()).toBe(afterFirst);
  });
});
