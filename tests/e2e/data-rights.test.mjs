// The Data Consents page (docs/decisions/data-rights.md): withdrawing a consent stops what it names and
// restoring resumes it; "Download my data" saves an archive whose manifest matches its files; "Delete your
// account" asks for the password, says what happens and when, and can be cancelled.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import { screenshot, sharedBrowser } from '../support/browser.mjs';
import { api } from '../support/http.mjs';
import { assertNoSeriousAxeViolations, h1, toast } from '../support/page.mjs';
import { newAccountPage } from '../support/session.mjs';

const getBrowser = sharedBrowser({ after });

/** A new account on the Data Consents page, downloads allowed ("Download my data"). */
async function signedIn() {
  const opened = await newAccountPage(await getBrowser(), '/app/consent', { acceptDownloads: true });
  await h1(opened.page, 'Data Consents').waitFor();
  return opened;
}

test('data consents: withdrawing Messages refuses a new message until it is allowed again', async () => {
  const { acct, context, page } = await signedIn();
  try {
    const create = () =>
      api('POST', '/api/message/create', {
        token: acct.token,
        body: {
          recipient_user_id: acct.user.id,
          content: 'hello',
          delivery_method: 'email',
          consent: true,
          rules: [{ trigger_type: 'missed_checkins', trigger_value: 2 }],
        },
      });
    const messages = page.getByRole('switch', { name: 'Messages' });
    assert.equal(await messages.isChecked(), true, 'allowed since sign-up');
    await messages.click();
    await toast(page, 'Messages withdrawn').waitFor();
    assert.equal(await messages.isChecked(), false);
    const refused = await create();
    assert.equal(refused.status, 403, refused.text);
    assert.ok(refused.json.detail, 'the refusal says why');
    await assertNoSeriousAxeViolations(page, '/app/consent with a consent withdrawn');
    await messages.click();
    await toast(page, 'Messages allowed again').waitFor();
    assert.equal((await create()).status, 201);
    const listed = await api('GET', '/api/legal/consent', { token: acct.token });
    assert.equal(listed.json.items.find((c) => c.id === 'messages').consent, true);
    await screenshot(page, 'data-consents');
  } finally {
    await context.close();
  }
});

test('data consents: "Download my data" saves a ZIP whose manifest matches every file', async () => {
  const { acct, context, page } = await signedIn();
  try {
    await api('POST', '/api/canary/create', { token: acct.token, body: { interval_seconds: 3600 } });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data' }).click()]);
    assert.match(download.suggestedFilename(), /^afterword-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = unzipSync(readFileSync(await download.path()));
    const manifest = JSON.parse(strFromU8(files['manifest.json']));
    assert.equal(manifest.user_id, acct.user.id);
    for (const f of manifest.files) {
      assert.equal(createHash('sha256').update(files[f.name]).digest('hex'), f.sha256, f.name);
    }
    assert.equal(JSON.parse(strFromU8(files['data/canaries.json'])).length, 1);
    assert.equal(JSON.parse(strFromU8(files['data/account.json']))[0].email, acct.email);
  } finally {
    await context.close();
  }
});

test('data consents: "Delete your account" asks for the password, says when, and can be cancelled', async () => {
  const { acct, context, page } = await signedIn();
  try {
    const form = page.getByRole('form', { name: 'Delete your account' });
    await form.getByLabel(/Your password/).fill('not my password');
    await form.getByRole('button', { name: 'Delete my account' }).click();
    // A wrong password is said before "are you sure?" is asked.
    await form.getByText('That is not your password').waitFor();
    assert.equal(await page.getByRole('dialog', { name: 'Delete your account in 7 days?' }).count(), 0);
    await form.getByLabel(/Your password/).fill(acct.password);
    await form.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account in 7 days?' });
    assert.match(await dialog.textContent(), /cannot be undone/);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await toast(page, 'Your account will be deleted in 7 days').waitFor();
    await page.getByText(/^Your account will be deleted on /).waitFor();
    const listed = await api('GET', '/api/legal/deletions', { token: acct.token });
    assert.equal(listed.json.items.filter((d) => d.reason === 'request').length, 1);
    await page.getByRole('button', { name: 'Cancel the deletion' }).click();
    await toast(page, 'The deletion of your account is cancelled').waitFor();
    await form.waitFor();
    assert.deepEqual((await api('GET', '/api/legal/deletions', { token: acct.token })).json.items, []);
  } finally {
    await context.close();
  }
});
