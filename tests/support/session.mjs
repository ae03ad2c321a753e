// Browser-test helpers: accounts made over the API, sessions seeded into a page's localStorage.
import { PASSWORD, login, register } from './http.mjs';

/** A registered account with a fresh API token. */
export async function accountWithToken(overrides = {}) {
  const acct = await register(overrides);
  return { ...acct, password: PASSWORD, token: await login(acct.email) };
}

/** Stores the token (and optionally the onboarding flag) the way the app does, then opens `path`. */
export async function openSignedIn(page, token, path = '/app', { seenOnboarding = true } = {}) {
  await page.goto('/');
  await page.evaluate(
    ([t, seen]) => {
      localStorage.setItem('token', t);
      if (seen) localStorage.setItem('hasSeenOnboarding', 'true');
    },
    [token, seenOnboarding],
  );
  await page.goto(path);
}

/** Resolves after `ms`; used to hold a request in flight so a "submitting" state can be observed. */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
