// The recipient's side and failed reads (docs/decisions/recipient-view.md): a recipient reads a released
// message on their own page — from whom, when and why, its content — with none of the sender's delivery
// internals; the Inbox sidebar entry counts unread messages and the count drops on opening; the
// dashboard says who left something. With /api failing, pages show the error state with the server's
// detail and a Retry, never "OK" or an empty state; axe stays at 0 serious on both.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { newContext, screenshot, sharedBrowser } from '../support/browser.mjs';
import { api } from '../support/http.mjs';
import { assertNoSeriousAxeViolations, card, eventually, h1 } from '../support/page.mjs';
import { accountWithToken, openSignedIn, signedInPage } from '../support/session.mjs';

const getBrowser = sharedBrowser({ after });

/** A message from `sender` to `recipientId`, made over the API. */
async function createMessage(sender, recipientId, fields) {
  const res = await api('POST', '/api/message/create', {
    token: sender.token,
    body: { recipient_user_id: recipientId, delivery_method: 'email', consent: true, ...fields },
  });
  assert.equal(res.status, 201, res.text);
  return res.json.id;
}

const receivedNav = (page) => page.getByRole('navigation', { name: 'Received' });
const inboxLink = (page) => receivedNav(page).getByRole('link', { name: /^Inbox/ });

test('the recipient reads a released message on their own page: from, when and why, no delivery log; the Inbox count drops as they open', async () => {
  const owner = await accountWithToken();
  const recipient = await accountWithToken();
  assert.equal((await api('PATCH', '/api/profile', { token: owner.token, body: { display_name: 'Ann' } })).status, 200);
  // Sent by push to someone with no device: the push attempt fails, yet the message is in their Inbox.
  const dueNow = await createMessage(owner, recipient.user.id, { content: 'The keys are in the blue box.', delivery_method: 'push' });
  const byHand = await createMessage(owner, recipient.user.id, { content: 'A second letter.', deliver_at: '2099-01-01' });
  assert.equal((await api('POST', `/api/messages/deliver/${byHand}`, { token: owner.token })).status, 200);

  const { page, context, errors } = await signedInPage(await getBrowser(), recipient.token, '/app', { width: 1280, height: 900 });
  try {
    // The dashboard says who left something, not that the recipient has no canary.
    await card(page, 'Waiting for you').getByText('Ann left you 2 messages.', { exact: false }).waitFor();
    assert.equal(await page.getByText('You have no canary yet.').count(), 0, 'no "no canary yet" for a recipient');
    await page.getByText('No canary of your own.').waitFor();

    // The nine main entries (docs/product.md "The app shell and navigation") stay as listed; the Inbox entry,
    // below them, counts 2 unread.
    assert.equal(await page.getByRole('navigation', { name: 'App' }).getByRole('link').count(), 9);
    await eventually(async () => (await inboxLink(page).textContent()) === 'Inbox2 unread', 'the Inbox entry shows 2 unread');
    await assertNoSeriousAxeViolations(page, '/app (recipient with messages)');

    await inboxLink(page).click();
    await h1(page, 'Inbox').waitFor();
    const item = page.locator('.message-item', { hasText: 'The keys are in the blue box.' });
    await item.getByText('Unread', { exact: true }).waitFor();
    await item.getByText('Released at the time Ann chose.').waitFor();
    await item.getByRole('link', { name: /^Open/ }).click();

    await page.waitForURL(`**/app/inbox/${dueNow}`);
    await h1(page, 'Message from Ann').waitFor();
    const message = card(page, 'Message');
    await message.getByText('The keys are in the blue box.').waitFor();
    await message.getByText('Released at the time Ann chose.').waitFor();
    await message.getByText(`Ann (${owner.email})`).waitFor();
    // None of the sender's side: no status, channel, log, history, rules or sender actions.
    const main = (await page.getByRole('main').textContent()) ?? '';
    for (const internal of ['Status', 'Failed', 'Delivery log', 'State history', 'released it by hand', 'Method', 'Push notification', 'Release now']) {
      assert.ok(!main.includes(internal), `the recipient's page does not show "${internal}"`);
    }
    // The sidebar marks the Inbox, not My Messages.
    assert.equal(await inboxLink(page).getAttribute('aria-current'), 'page');
    assert.equal(await page.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'My Messages' }).getAttribute('aria-current'), null);
    // Opened: the count drops to 1.
    await eventually(async () => (await inboxLink(page).textContent()) === 'Inbox1 unread', 'the Inbox entry drops to 1 unread');
    await assertNoSeriousAxeViolations(page, '/app/inbox/{id}');
    await screenshot(page, 'recipient-view');

    // The sender's page address leads a recipient to their own page; it says the sender released it.
    await page.goto(`/app/messages/view/${byHand}`);
    await page.waitForURL(`**/app/inbox/${byHand}`);
    await card(page, 'Message').getByText('Ann chose to release it to you now.').waitFor();
    await eventually(async () => (await inboxLink(page).textContent()) === 'Inbox', 'no count once everything is opened');
    assert.deepEqual(
      errors.filter((e) => !/Failed to load resource/.test(e.text)),
      [],
      'no console errors',
    );
  } finally {
    await context.close();
  }
});

test('with /api failing, pages show the error state with the server’s detail and Retry, never OK or an empty state', async () => {
  const acct = await accountWithToken();
  const { context } = await newContext(await getBrowser(), { width: 1280, height: 900 });
  try {
    const page = await context.newPage();
    let failing = true;
    // Every tRPC read answers as the server does when it fails: one error per batched procedure.
    await page.route('**/api/trpc/**', async (route) => {
      if (!failing) return route.fallback();
      const procedures = decodeURIComponent(new URL(route.request().url()).pathname.slice('/api/trpc/'.length)).split(',');
      const error = {
        error: {
          message: 'The database is unavailable',
          code: -32603,
          data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 503, detail: 'The database is unavailable' },
        },
      };
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify(procedures.map(() => error)) });
    });

    await openSignedIn(page, acct.token, '/app/canary-status');
    const failed = page.getByRole('alert').filter({ hasText: 'Your canary status could not be loaded.' });
    await failed.waitFor();
    await failed.getByText('The database is unavailable').waitFor();
    assert.equal(await page.getByText('Status:').count(), 0, 'no status line, so no "OK"');
    assert.equal(await page.getByText('No canary yet', { exact: false }).count(), 0, 'not shown as empty either');
    assert.equal(await page.getByRole('button', { name: 'Check in now' }).count(), 0, 'no check-in offered on a failed read');
    await assertNoSeriousAxeViolations(page, '/app/canary-status (API failing)');
    await screenshot(page, 'api-failing-canary-status');

    // The dashboard too: its canary is "could not be loaded", not "You have no canary yet".
    await page.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your canary could not be loaded.' }).waitFor();
    assert.equal(await page.getByText('You have no canary yet.').count(), 0);

    // The server is back: Retry asks again and shows what is really there (no canary, nothing to check in).
    failing = false;
    await page.getByRole('alert').filter({ hasText: 'Your canary could not be loaded.' }).getByRole('button', { name: 'Retry' }).click();
    await page.getByText('You have no canary yet.').waitFor();
    await page.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'Canary Status' }).click();
    await page.getByText('No canary yet, so there is nothing to check in or miss.', { exact: false }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Check in now' }).count(), 0, 'no "Check in now" with nothing to check in');
  } finally {
    await context.close();
  }
});
