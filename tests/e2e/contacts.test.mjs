// Contacts (docs/decisions/contacts.md): the owner invites a person by email who has no account yet; the
// invitation email (the local outbox row, read from D1 since it is in nobody's mailbox until an account
// exists) carries a link; the invitee opens it signed out, creates an account, signs in, comes back to
// it and accepts; the owner then picks the invitee by name in Create Message and in the guardian form,
// which fill the id and the email, and reads "No rules and no date: this is sent to … now." before the
// button. It reads the outbox rows from the stage Worker's D1.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { launchBrowser, screenshot } from '../support/browser.mjs';
import { d1 } from '../support/d1.mjs';
import { assertNoSeriousAxeViolations, card, eventually, h1, unexpectedConsoleErrors, dismissRecoveryKey } from '../support/page.mjs';
import { stageWorker } from '../support/stage-worker.mjs';
import { api as call, PASSWORD, uniqueEmail } from '../support/http.mjs';
import { accountWithToken, signedInPage } from '../support/session.mjs';

const STEP_TIMEOUT = 60_000;

let browserStarting;
after(async () => {
  if (browserStarting) await (await browserStarting).close().catch(() => {});
});
const getWorker = async () => stageWorker();
const getBrowser = () => (browserStarting ??= launchBrowser());

/** A context on the test's Worker with the Welcome modal already seen; signed in when `token` is given. */
async function browserAs(token, path) {
  const { origin } = await getWorker();
  return signedInPage(await getBrowser(), token, path, { baseURL: origin, width: 1280, height: 900, timeout: STEP_TIMEOUT });
}

test('contacts: invite by email → the invitee signs up, opens the link and accepts → picked by name in the message and guardian forms', {
  timeout: 300_000,
}, async () => {
  const worker = await getWorker();
  const { token: ownerToken } = await accountWithToken({ email: uniqueEmail('ann') });
  const named = await call('PATCH', '/api/profile', { token: ownerToken, body: { display_name: 'Ann' } });
  assert.equal(named.status, 200, named.text);
  const inviteeEmail = uniqueEmail('bob');

  const o = await browserAs(ownerToken, '/app/contacts');
  let b;
  try {
    // 1. The owner invites an address that has no account yet.
    await h1(o.page, 'Contacts').waitFor();
    await assertNoSeriousAxeViolations(o.page, '/app/contacts (empty)');
    const form = o.page.getByRole('form', { name: 'Add a contact' });
    await form.getByLabel('Email').fill(inviteeEmail);
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await o.page.getByText('Invitation sent. They appear in your pickers once they accept.').waitFor();
    const list = card(o.page, 'Your contacts');
    await list.getByText(inviteeEmail).waitFor();
    await list.getByText('Invited', { exact: true }).waitFor();

    // 2. The invitation email, sent by the JOBS consumer.
    const mail = await eventually(async () => {
      const [row] = await d1(
        worker.persistDir,
        `SELECT text, recipient_user_id FROM outbox_messages WHERE address = '${inviteeEmail}' AND subject LIKE '%wants to add you as a contact%' LIMIT 1`,
      );
      return row;
    }, 'the invitation email in the outbox');
    assert.equal(mail.recipient_user_id, null, 'no account had that address when it was sent');
    assert.match(mail.text, /Ann \(ann\./);
    const link = /https?:\/\/\S+\/contacts\/accept\/[A-Za-z0-9_-]+/.exec(mail.text)[0];

    // 3. The invitee opens it signed out, creates an account, signs in and is brought back to it.
    b = await browserAs(null, new URL(link).pathname);
    await h1(b.page, 'Contact invitation').waitFor();
    await assertNoSeriousAxeViolations(b.page, '/contacts/accept (signed out)');
    await b.page.getByRole('link', { name: 'Create an account' }).click();
    await b.page.waitForURL('**/signup');
    await b.page.getByLabel('Email').fill(inviteeEmail);
    await b.page.getByLabel('Password').fill(PASSWORD);
    await b.page.getByRole('button', { name: 'Create account' }).click();
    await b.page.waitForURL('**/login');
    await h1(b.page, 'Sign in').waitFor();
    const signIn = b.page.getByRole('main');
    await signIn.getByLabel('Email').fill(inviteeEmail);
    await signIn.getByLabel('Password').fill(PASSWORD);
    await signIn.getByRole('button', { name: 'Sign in', exact: true }).click();
    await b.page.waitForURL((u) => u.pathname.startsWith('/contacts/accept/'));
    const accept = b.page.getByRole('button', { name: 'Accept', exact: true });
    // Signed in for the first time: the recovery key comes first.
    await dismissRecoveryKey(b.page);
    await h1(b.page, 'Contact invitation').waitFor();
    await accept.click();
    await b.page.getByText('You and Ann are now contacts.').waitFor();
    await screenshot(b.page, 'contacts-accepted');
    await assertNoSeriousAxeViolations(b.page, '/contacts/accept (accepted)');
    const inviteeToken = await b.page.evaluate(() => localStorage.getItem('token'));
    const inviteeId = (await call('GET', '/api/auth/me', { token: inviteeToken })).json.id;

    // 4. The owner sees the contact by name, and picks it in Create Message: the id is filled, and the
    // form says before the button that, with no rules and no date, it goes now.
    await o.page.reload();
    await card(o.page, 'Your contacts').getByText('Contact', { exact: true }).waitFor();
    await assertNoSeriousAxeViolations(o.page, '/app/contacts');
    await o.page.goto('/app/create');
    await h1(o.page, 'Create Message').waitFor();
    await o.page.getByText('No rules and no date: this is sent to the recipient now.').waitFor();
    await o.page.getByLabel('Pick from your contacts').selectOption({ label: inviteeEmail });
    assert.equal(await o.page.getByLabel('Recipient User ID').inputValue(), inviteeId);
    const sentence = o.page.getByText(`No rules and no date: this is sent to ${inviteeEmail} now.`);
    await sentence.waitFor();
    const [sentenceBox, buttonBox] = [await sentence.boundingBox(), await o.page.getByRole('button', { name: 'Create message', exact: true }).boundingBox()];
    assert.ok(sentenceBox.y < buttonBox.y, 'the sentence is before the button');
    // A channel that cannot reach them is said too: no device for push.
    await o.page.getByLabel('Delivery method').selectOption('push');
    await o.page.getByText(`${inviteeEmail} has no device for push; it will still reach their Inbox.`).waitFor();
    await screenshot(o.page, 'contacts-create-message');
    await assertNoSeriousAxeViolations(o.page, '/app/create (contact picked)');

    // 5. And in the guardian form: the email is filled.
    await o.page.goto('/app/guardian');
    await h1(o.page, 'Guardian').waitFor();
    const assign = o.page.getByRole('form', { name: 'Assign a guardian' });
    await assign.getByLabel('Pick from your contacts').selectOption({ label: inviteeEmail });
    assert.equal(await assign.getByLabel('Email').inputValue(), inviteeEmail);
    await assertNoSeriousAxeViolations(o.page, '/app/guardian (contact picked)');

    // 6. Limits are said before anyone runs into them: the interval range and the Free plan's one canary.
    await o.page.goto('/app/canary-status');
    const create = card(o.page, 'Create a canary');
    await create.getByText('At least one minute, at most 400 days (9600 hours).', { exact: false }).waitFor();
    await create.getByText('Your Free plan allows 1 canary; you have 0.').waitFor();

    assert.deepEqual(unexpectedConsoleErrors(o.errors), [], 'no console errors for the owner');
    // A first sign-in looks for the account's keys before making them: that one 404 is expected.
    assert.deepEqual(unexpectedConsoleErrors(b.errors, [404]), [], 'no console errors for the invitee');
  } finally {
    await o.context.close();
    await b?.context.close();
  }
});
