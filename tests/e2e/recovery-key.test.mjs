// The recovery key is never lost for good (docs/security/e2ee.md, "A recovery key that was never saved"):
// a person whose tab closed while the key was on screen gets a new one at their next sign-in (the first
// stops working), a key they ticked as saved is not asked again, and Settings makes a new one at any
// time. Node opens the stored recovery wrap with each key shown, so "works" and "stops working" are facts
// about the stored wrap, not about the page.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { newContext, sharedBrowser } from '../support/browser.mjs';
import { unwrapPrivateKey } from '../support/e2ee-node.mjs';
import { api, login, PASSWORD, register } from '../support/http.mjs';
import { card, h1 } from '../support/page.mjs';
import { uiLogin } from '../support/recorded-context.mjs';

const getBrowser = sharedBrowser({ after });
const KEY_SHAPE = /^([A-Z2-7]{4}-){12}[A-Z2-7]{4}$/;

/** A fresh tab with the Welcome already seen, signed in through the login form. */
async function signIn(email) {
  const { context, errors } = await newContext(await getBrowser());
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  await page.goto('/');
  await page.evaluate(() => localStorage.setItem('hasSeenOnboarding', 'true'));
  await uiLogin(page, email, PASSWORD);
  return { context, page, errors, dialog: page.getByRole('dialog', { name: 'Save your recovery key' }) };
}

async function shownKey(dialog) {
  await dialog.waitFor();
  const key = (await dialog.locator('pre').textContent()).trim();
  assert.match(key, KEY_SHAPE);
  return key;
}

async function storedBundle(email) {
  const res = await api('GET', '/api/keys/me', { token: await login(email) });
  assert.equal(res.status, 200, res.text);
  return res.json;
}

const opens = async (wrap, recoveryKey) =>
  unwrapPrivateKey(wrap, { recoveryKey }).then(
    () => true,
    () => false,
  );

test('a recovery key lost with a closed tab is replaced at the next sign-in; once saved it is not asked again; Settings makes a new one', async () => {
  const { email } = await register();

  // First sign-in: the keys are made and the recovery key shown, and the tab closes before it is saved.
  const first = await signIn(email);
  const lostKey = await shownKey(first.dialog);
  await first.context.close();
  const afterFirst = await storedBundle(email);
  assert.equal(afterFirst.recovery_saved_at, null, 'nothing says the first key was saved');
  assert.equal(await opens(afterFirst.recovery_wrap, lostKey), true);

  // Second sign-in: a new key, said to replace the unsaved one; the lost one opens nothing any more.
  const second = await signIn(email);
  const newKey = await shownKey(second.dialog);
  assert.notEqual(newKey, lostKey);
  await second.dialog.getByText('Your earlier recovery key was never marked as saved').waitFor();
  const afterSecond = await storedBundle(email);
  assert.equal(afterSecond.recovery_saved_at, null, 'the new key is not saved until the tick');
  assert.equal(await opens(afterSecond.recovery_wrap, newKey), true, 'the new key opens the stored wrap');
  assert.equal(await opens(afterSecond.recovery_wrap, lostKey), false, 'the lost key opens nothing');
  assert.deepEqual(afterSecond.public_key, afterFirst.public_key, 'the key pair stays: every message stays readable');
  await second.dialog.getByLabel('I have saved my recovery key').check();
  await second.dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await second.dialog.waitFor({ state: 'detached' });
  const saved = await storedBundle(email);
  assert.ok(saved.recovery_saved_at, 'the tick is recorded');
  assert.deepEqual(saved.recovery_wrap, afterSecond.recovery_wrap);
  await second.context.close();

  // Third sign-in: the keys are unlocked before the dashboard opens, and no key is asked for.
  const third = await signIn(email);
  await h1(third.page, 'Dashboard').waitFor();
  assert.equal(await third.dialog.count(), 0, 'a saved recovery key is not shown again');
  assert.deepEqual((await storedBundle(email)).recovery_wrap, afterSecond.recovery_wrap, 'and not replaced');

  // Settings: the page says when it was saved, and makes a new one with the password.
  await third.page.goto('/app/notifications');
  const section = card(third.page, 'Recovery key');
  await section.getByText('You saved your recovery key on').waitFor();
  await section.getByLabel('Current password').fill('not the password');
  await section.getByRole('button', { name: 'Make a new recovery key' }).click();
  await section.getByText('The current password is not correct').waitFor();
  await section.getByLabel('Current password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Make a new recovery key' }).click();
  const settingsKey = await shownKey(third.dialog);
  const afterSettings = await storedBundle(email);
  assert.equal(await opens(afterSettings.recovery_wrap, settingsKey), true);
  assert.equal(await opens(afterSettings.recovery_wrap, newKey), false, 'the replaced key stops working');
  await third.dialog.getByLabel('I have saved my recovery key').check();
  await third.dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await third.dialog.waitFor({ state: 'detached' });
  await section.getByText('You saved your recovery key on').waitFor();
  assert.ok((await storedBundle(email)).recovery_saved_at);
  assert.deepEqual(third.errors, []);
  await third.context.close();
});
