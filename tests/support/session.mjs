// Browser-test helpers: accounts made over the API, sessions seeded into a page's localStorage.
import { newContext } from './browser.mjs';
import { PASSWORD, login, register } from './http.mjs';

/** A registered account with a fresh API token. */
export async function accountWithToken(overrides = {}) {
  const acct = await register(overrides);
  return { ...acct, password: PASSWORD, token: await login(acct.email) };
}

/**
 * Stores the token (and optionally the onboarding flag) the way the app does, then opens `path`;
 * with no token the page opens signed out.
 */
export async function openSignedIn(page, token, path = '/app', { seenOnboarding = true } = {}) {
  await page.goto('/');
  await page.evaluate(
    ([t, seen]) => {
      if (t) localStorage.setItem('token', t);
      if (seen) localStorage.setItem('hasSeenOnboarding', 'true');
    },
    [token, seenOnboarding],
  );
  await page.goto(path);
}

/**
 * A fresh context (tests/support/browser.mjs `newContext`: its own localStorage, console errors recorded)
 * with one page signed in with `token` at `path`. `options` are the context's (width, height, baseURL,
 * timezoneId, permissions, acceptDownloads…) plus `seenOnboarding` (openSignedIn) and `timeout`, the
 * context's default for every wait, set before the first navigation.
 * @param {import('playwright-core').Browser} browser
 * @param {string | null} token
 */
export async function signedInPage(browser, token, path = '/app', { seenOnboarding = true, timeout, ...contextOptions } = {}) {
  const { context, errors } = await newContext(browser, contextOptions);
  if (timeout) context.setDefaultTimeout(timeout);
  const page = await context.newPage();
  await openSignedIn(page, token, path, { seenOnboarding });
  return { page, context, errors };
}

/** A new account (accountWithToken) and a page signed in as it at `path`: signedInPage's options and result, plus `acct`. */
export async function newAccountPage(browser, path = '/app', options = {}) {
  const acct = await accountWithToken();
  return { acct, ...(await signedInPage(browser, acct.token, path, options)) };
}

/** Resolves after `ms`; used to hold a request in flight so a "submitting" state can be observed. */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
