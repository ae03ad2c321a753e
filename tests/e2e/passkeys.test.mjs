// Passkeys in Chromium with its virtual authenticator (DevTools WebAuthn domain): a person adds one on the
// Notifications page, checks in with it from the dashboard, and signs in with it alone. Locally passkeys live
// on http://localhost:<port> (browsers refuse an IP address as a passkey's domain), which the page says at 127.0.0.1.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { newContext, sharedBrowser, screenshot } from '../support/browser.mjs';
import { api } from '../support/http.mjs';
import { card, h1, toast, unexpectedConsoleErrors } from '../support/page.mjs';
import { accountWithToken, openSignedIn, signedInPage } from '../support/session.mjs';

const getBrowser = sharedBrowser({ after });
const localhost = () => process.env.AFTERWORD_ORIGIN.replace('127.0.0.1', 'localhost');

/** A platform authenticator that verifies its user (as a fingerprint would) and keeps discoverable passkeys. */
async function virtualAuthenticator(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

test('passkeys: added on Notifications, a dashboard check-in with it, and a sign-in with it alone', async () => {
  const owner = await accountWithToken();
  const canary = await api('POST', '/api/canary/create', { token: owner.token, body: { interval_seconds: 3600, name: 'Daily' } });
  assert.equal(canary.status, 201, canary.text);
  const { context, errors } = await newContext(await getBrowser(), { baseURL: localhost() });
  const page = await context.newPage();
  const device = await virtualAuthenticator(context, page);
  try {
    await openSignedIn(page, owner.token, '/app/notifications');
    const passkeys = card(page, 'Passkeys');
    await passkeys.getByText('No passkeys yet.').waitFor();
    await passkeys.getByLabel('Name').fill('Laptop');
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    await toast(page, 'Passkey added').waitFor();
    await passkeys.getByRole('heading', { name: 'Laptop' }).waitFor();
    assert.equal((await device.credentials()).length, 1, 'the authenticator holds the new passkey');
    await screenshot(page, 'passkeys-notifications');

    await page.goto('/app');
    await h1(page, 'Dashboard').waitFor();
    await page.getByRole('button', { name: 'Check in with a passkey' }).click();
    await toast(page, 'Check-in received').waitFor();
    await card(page, 'Recent Activity').getByText('Checked in with a passkey: "Daily".', { exact: true }).waitFor();

    // Signed out, the passkey alone signs the person in.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/login|\/$/);
    assert.equal(await page.evaluate(() => localStorage.getItem('token')), null);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await h1(page, 'Dashboard').waitFor();
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const me = await api('GET', '/api/auth/me', { token });
    assert.equal(me.json.id, owner.user.id, 'the new session is the owner’s');
    assert.deepEqual(unexpectedConsoleErrors(errors), []);
  } finally {
    await context.close();
  }
});

test('passkeys: at 127.0.0.1 the page says to open localhost instead of offering a passkey that cannot work', async () => {
  const owner = await accountWithToken();
  const { page, context } = await signedInPage(await getBrowser(), owner.token, '/app/notifications');
  try {
    const note = card(page, 'Passkeys').getByRole('note');
    await note.waitFor();
    assert.match(await note.textContent(), /^Passkeys need a name, not an address: open http:\/\/localhost:\d+ to use them\.$/);
    await page.goto('/login');
    // The prerendered page (web/src/prerender.tsx) shows the button, disabled, until the app has hydrated.
    await page.waitForFunction(() => document.querySelector('form[aria-label="Sign in"] button[type=submit]')?.disabled === false);
    assert.equal(await page.getByRole('button', { name: 'Sign in with a passkey' }).count(), 0);
  } finally {
    await context.close();
  }
});
