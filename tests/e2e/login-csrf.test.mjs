// Login CSRF: a link `/login#access_token=<someone else's token>` must not sign the browser into that
// account (everything the owner then wrote would land in the outsider's account). The login page takes
// a fragment token only from the Google sign-in it started itself (web/src/lib/oauth-fragment.ts).
// The outsider's token here is real and valid: only the page's check stands in the way.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { newContext, sharedBrowser } from '../support/browser.mjs';
import { api } from '../support/http.mjs';
import { accountWithToken, signedInPage } from '../support/session.mjs';

const getBrowser = sharedBrowser({ after });
const googleInBuild = process.env.VITE_GOOGLE_SIGNIN === 'true';

/** A crafted link carrying `token`, shaped exactly like the callback's hand-back. */
const plantedLink = (token, extra = '') => `/login#access_token=${token}&token_type=bearer&expires_in=2592000${extra}`;
const madeUpState = () => `&state=${randomBytes(32).toString('base64url')}`;

async function freshPage() {
  const { context, errors } = await newContext(await getBrowser());
  return { context, errors, page: await context.newPage() };
}

/** Opens the planted link and waits until the page has dealt with it: it clears the fragment whatever it decides. */
async function followPlantedLink(page, link) {
  await page.goto(link);
  await page.waitForFunction(() => window.location.hash === '');
}

/** The page stayed on Sign in; with Google sign-in in the build it says, calmly, that it took nothing. */
async function assertRefusedCalmly(page) {
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/login', 'not taken on to /app');
  const alert = page.getByRole('alert').filter({ hasText: /\S/ });
  if (googleInBuild) {
    await alert.first().waitFor();
    assert.equal((await alert.first().textContent()).trim(), 'Google sign-in could not be completed. Please try again.');
  } else {
    assert.equal(await alert.count(), 0, 'nothing to say: this build has no Google sign-in');
  }
}

/** Whose account the page would act as: /api/auth/me with the token the page stored. */
async function signedInAs(page) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  if (!token) return null;
  const me = await api('GET', '/api/auth/me', { token });
  assert.equal(me.status, 200, me.text);
  return me.json.email;
}

for (const [what, extra] of [
  ['without a state', () => ''],
  ['with a made-up state', madeUpState],
]) {
  test(`a planted /login#access_token=… link ${what} leaves a signed-in owner signed in as themselves`, async () => {
    const owner = await accountWithToken();
    const outsider = await accountWithToken();
    const { page, context } = await signedInPage(await getBrowser(), owner.token, '/app');
    try {
      await page.waitForURL((u) => u.pathname === '/app');
      assert.equal(await signedInAs(page), owner.email);

      await followPlantedLink(page, plantedLink(outsider.token, extra()));
      assert.equal(await signedInAs(page), owner.email, "the owner's session is untouched");
      await assertRefusedCalmly(page);
    } finally {
      await context.close();
    }
  });

  test(`a planted /login#access_token=… link ${what} does not sign a signed-out visitor in`, async () => {
    const outsider = await accountWithToken();
    const { page, context } = await freshPage();
    try {
      await followPlantedLink(page, plantedLink(outsider.token, extra()));
      assert.equal(await signedInAs(page), null, 'no token stored');
      await assertRefusedCalmly(page);
      // Still signed out as far as the app is concerned: /app sends the visitor back to /login.
      await page.goto('/app');
      await page.waitForURL((u) => u.pathname === '/login');
    } finally {
      await context.close();
    }
  });
}
