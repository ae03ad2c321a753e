// A message to someone who deletes their account (docs/decisions/data-rights.md): the
// recipient asks for the deletion, its date is moved into the past in D1 and the every-minute cron
// (`/cdn-cgi/handler/scheduled` of `wrangler dev`) erases the account; the sender then finds the message
// on My Messages and on its page as "Undeliverable: the recipient left Afterword", with no trace of the
// recipient, and its history says why. The test moves the deletion's date in the stage Worker's D1.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { launchBrowser, screenshot } from '../support/browser.mjs';
import { d1 } from '../support/d1.mjs';
import { assertNoSeriousAxeViolations, card, eventually, h1, unexpectedConsoleErrors } from '../support/page.mjs';
import { stageWorker } from '../support/stage-worker.mjs';
import { api as call, PASSWORD, uniqueEmail } from '../support/http.mjs';
import { accountWithToken, signedInPage } from '../support/session.mjs';

const UNDELIVERABLE = 'Undeliverable: the recipient left Afterword';

let browserStarting;
after(async () => {
  if (browserStarting) await (await browserStarting).close().catch(() => {});
});
const getWorker = async () => stageWorker();
const getBrowser = () => (browserStarting ??= launchBrowser());

const account = (name) => accountWithToken({ email: uniqueEmail(name) });

test('a message to someone who deleted their account shows as undeliverable on My Messages and its page', { timeout: 300_000 }, async () => {
  const worker = await getWorker();
  const sender = await account('ann');
  const recipient = await account('bob');
  const created = await call('POST', '/api/message/create', {
    token: sender.token,
    body: {
      recipient_user_id: recipient.user.id,
      content: 'For Bob, when I am gone',
      delivery_method: 'email',
      use_e2ee: false,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: '3' }],
      consent: true,
    },
  });
  assert.equal(created.status, 201, created.text);

  // The recipient leaves: asked, then the 7 days are over and the cron runs.
  assert.equal((await call('POST', '/api/account/delete', { token: recipient.token, body: { password: PASSWORD } })).status, 201);
  await d1(worker.persistDir, `UPDATE scheduled_deletions SET deletion_date = ${Date.now() - 60_000} WHERE user_id = '${recipient.user.id}'`);
  await eventually(async () => {
    await fetch(new URL('/cdn-cgi/handler/scheduled?cron=*+*+*+*+*', worker.origin));
    return (await d1(worker.persistDir, `SELECT id FROM users WHERE id = '${recipient.user.id}'`)).length === 0;
  }, 'the recipient’s account is erased');

  const { page, context, errors } = await signedInPage(await getBrowser(), sender.token, '/app/messages', { baseURL: worker.origin, width: 1280, height: 900 });
  try {
    await h1(page, 'My Messages').waitFor();
    const item = page.getByRole('listitem').filter({ hasText: 'For Bob, when I am gone' });
    await item.getByText(UNDELIVERABLE, { exact: true }).waitFor();
    assert.equal(await item.getByText('Cancelled', { exact: true }).count(), 0);
    await item.getByText('Someone who left Afterword', { exact: true }).waitFor();
    assert.ok(!(await item.textContent()).includes(recipient.email), 'no trace of the recipient’s address');
    await screenshot(page, 'undeliverable-my-messages');
    await assertNoSeriousAxeViolations(page, 'My Messages with an undeliverable message');

    await item.getByRole('link', { name: /^View/ }).click();
    const message = card(page, 'Message');
    await message.getByText(UNDELIVERABLE, { exact: true }).waitFor();
    await message.getByText(/will never be delivered/).waitFor();
    await page.getByText(/deleted their Afterword account before it was released/).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Cancel message' }).count(), 0);
    await screenshot(page, 'undeliverable-message-page');
    await assertNoSeriousAxeViolations(page, 'the page of an undeliverable message');
    assert.deepEqual(unexpectedConsoleErrors(errors), []);
  } finally {
    await context.close();
  }
});
