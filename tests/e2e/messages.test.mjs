// Messages pages (docs/product.md "Messages and release rules"): Create Message (rules editor, voice recording,
// the E2EE warning and the server's detail), My Messages and its filters, the view page (Release now, delivery
// log, state history, audio), the recipient's Inbox and the local Outbox, the Notifications page
// (preferences, profile, phone verification through the outbox), and axe scans of each.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, test } from 'node:test';
import { launchBrowser, screenshot } from '../support/browser.mjs';
import { eventuallyStored } from '../support/drafts.mjs';
import { api } from '../support/http.mjs';
import { assertNoSeriousAxeViolations, card, eventually, h1, toast, unexpectedConsoleErrors } from '../support/page.mjs';
import { accountWithToken, signedInPage } from '../support/session.mjs';

// One browser for the file, with Chromium's fake microphone (a beep) and no permission prompt.
let launching;
after(async () => {
  if (launching) await (await launching).close();
});
const getBrowser = () => (launching ??= launchBrowser(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']));

const E2EE_WARNING = 'Warning: This will send an unreadable encrypted message to the recipient who can only decrypt it if they hold the required private key.';
/** A zone far from UTC, so the local-time → ISO conversion is really exercised. */
const TIME_ZONE = 'America/New_York';

/**
 * A context signed in as `acct` at `path`, in TIME_ZONE with the microphone allowed, and the requests its
 * page makes once open (the checks count the message.create calls of their own clicks).
 */
async function signedIn(acct, path, { width = 1280 } = {}) {
  const opened = await signedInPage(await getBrowser(), acct.token, path, { width, height: 900, timezoneId: TIME_ZONE, permissions: ['microphone'] });
  const requests = [];
  opened.page.on('request', (r) => requests.push({ method: r.method(), url: r.url() }));
  return { ...opened, requests };
}

/** The tRPC procedures a request URL calls (httpBatchLink joins them with commas). */
function procedures(requestUrl) {
  const p = new URL(requestUrl).pathname;
  return p.startsWith('/api/trpc/') ? decodeURIComponent(p.slice('/api/trpc/'.length)).split(',') : [];
}
const calls = (requests, proc) => requests.filter((r) => procedures(r.url).includes(proc));

/** 'YYYY-MM-DDTHH:mm' for tomorrow at 10:00 in the page's time zone (a datetime-local value). */
const tomorrowAtTen = (page) =>
  page.evaluate(() => {
    const d = new Date();
    d.setDate(d.getDate() + 1);
    const p = (n) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T10:00`;
  });

/** Fills the create form's always-present fields. */
async function fillBasics(page, { content, recipientId, method = 'email', deliverAt }) {
  await page.getByLabel('Message', { exact: true }).fill(content);
  await page.getByLabel('Recipient User ID').fill(recipientId);
  await page.getByLabel('Delivery method').selectOption(method);
  if (deliverAt) await page.getByLabel('Deliver at').fill(deliverAt);
}

async function submitAndOpen(page) {
  await page.getByRole('button', { name: 'Create message', exact: true }).click();
  await toast(page, 'Message queued').waitFor();
  await page.waitForURL(/\/app\/messages\/view\/[0-9a-f-]{36}$/);
  await h1(page, 'Message').waitFor();
  return page.url().split('/').pop();
}

test('messages: two users: create with and without rules, Release now, log and history, filters, Inbox and Outbox', async () => {
  const sender = await accountWithToken();
  const recipient = await accountWithToken();
  const tag = randomUUID().slice(0, 8);
  const ruleText = `If I stop checking in (${tag}): the keys are in the blue box.`;
  const releaseText = `Released by hand (${tag}): thank you for everything.`;

  const s = await signedIn(sender, '/app/create');
  let r;
  try {
    const { page } = s;
    await h1(page, 'Create Message').waitFor();

    // E2EE: the exact warning appears while checked; why it cannot be sent shows under the box.
    const e2ee = page.getByLabel('Use end-to-end encryption');
    assert.equal(await page.getByText(E2EE_WARNING, { exact: true }).count(), 0);
    await e2ee.check();
    await page.getByText(E2EE_WARNING, { exact: true }).waitFor();
    await fillBasics(page, { content: 'Sealed', recipientId: recipient.user.id });
    await page.getByRole('button', { name: 'Create message', exact: true }).click();
    await toast(page, 'Failed to create message').waitFor();
    // A sender without keys (signed in by token, not through the login form) is stopped in the browser.
    await page.getByText(/Your encryption keys are not set up yet/).waitFor();
    assert.equal(await e2ee.getAttribute('aria-invalid'), 'true', 'the detail is tied to the checkbox');
    await screenshot(page, 'create-message-e2ee');
    await e2ee.uncheck();
    assert.equal(await page.getByText(E2EE_WARNING, { exact: true }).count(), 0, 'the warning goes with the tick');

    // The refused message was kept as a draft, and the form brings it back: discarded here, so message A is
    // written into an empty form (typing while the draft is still being restored could mix the two).
    await eventuallyStored(page, true);
    await page.goto('/app/create');
    const restored = page.getByRole('status').filter({ hasText: /^Draft restored/ });
    await restored.waitFor();
    assert.equal(await page.getByLabel('Message', { exact: true }).inputValue(), 'Sealed', 'the draft holds what was typed');
    await page.getByRole('button', { name: 'Discard draft', exact: true }).click();
    await restored.waitFor({ state: 'detached' });
    assert.equal(await page.getByLabel('Message', { exact: true }).inputValue(), '', 'a discarded draft empties the form');

    // Message A: a missed-check-ins rule (2, with a 1-day window), delivered by email when it fires.
    await fillBasics(page, { content: ruleText, recipientId: recipient.user.id });
    await page.getByRole('button', { name: 'Add rule', exact: true }).click();
    await page.getByRole('button', { name: 'Add rule', exact: true }).click();
    const rules = page.getByRole('group', { name: /^Rule \d$/ });
    assert.equal(await rules.count(), 2);
    await rules.nth(1).getByRole('button', { name: 'Remove rule 2' }).click();
    assert.equal(await rules.count(), 1, 'Remove rule removes it');
    await rules.first().getByLabel('Number of missed check-ins').fill('2');
    await rules.first().getByLabel('Expire window in days (optional)').fill('1');
    await assertNoSeriousAxeViolations(page, '/app/create with a rule');
    const idA = await submitAndOpen(page);
    const detailA = (await api('GET', `/api/message/${idA}`, { token: sender.token })).json;
    assert.equal(detailA.message.status, 'scheduled');
    assert.deepEqual(
      detailA.message.rules.map((x) => [x.trigger_type, x.trigger_value, x.expire_window]),
      [['missed_checkins', '2', 1]],
    );
    await card(page, 'Message').getByText('After 2 missed check-ins; cancelled if you check in within 1 day').waitFor();
    await card(page, 'Message').locator('.badge').getByText('Scheduled', { exact: true }).waitFor();
    await card(page, 'Delivery log').getByText('Nothing has been sent yet.').waitFor();
    await card(page, 'State history').locator('.timeline__item').first().waitFor();

    // Message B: no rules, due tomorrow 10:00 New York time, with a voice recording; then Release now.
    await page.goto('/app/create');
    const local = await tomorrowAtTen(page);
    await fillBasics(page, { content: releaseText, recipientId: recipient.user.id, deliverAt: local });
    await page.getByRole('button', { name: 'Record', exact: true }).click();
    await page.getByText('Recording', { exact: false }).first().waitFor();
    await page.waitForTimeout(1500);
    await page.getByRole('button', { name: 'Stop recording', exact: true }).click();
    await page.getByLabel('Preview of your recording').waitFor();
    const creating = calls(s.requests, 'message.create').length;
    const idB = await submitAndOpen(page);
    assert.equal(calls(s.requests, 'message.create').length, creating + 1, 'one create request');
    const detailB = (await api('GET', `/api/message/${idB}`, { token: sender.token })).json;
    const expected = await page.evaluate((v) => new Date(v).getTime(), local);
    assert.equal(Date.parse(detailB.message.deliver_at), expected, `deliver_at ${detailB.message.deliver_at} is ${local} in ${TIME_ZONE}`);
    assert.equal(detailB.message.rules.length, 0);
    assert.equal(detailB.message.has_audio, true, 'the recording was sent');
    await card(page, 'Message')
      .getByText(/^Will be released at /)
      .waitFor();
    const audio = card(page, 'Message').locator('audio');
    await audio.waitFor();
    assert.match(await audio.getAttribute('src'), /^blob:/, 'the recording plays from an object URL');

    await card(page, 'Message').getByRole('button', { name: 'Release now', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Release this message now?', exact: true });
    await dialog.waitFor();
    await screenshot(page, 'message-release-confirm');
    await dialog.getByRole('button', { name: 'Release now', exact: true }).click();
    await toast(page, 'Message released').waitFor();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await card(page, 'Message').getByRole('button', { name: 'Release now' }).count(), 0, 'no Release now once released');

    // The delivery log fills in as the channels answer (the page re-reads it), and the history says why.
    const log = card(page, 'Delivery log');
    await log.locator('tbody tr', { hasText: 'Email' }).getByText('Success', { exact: true }).waitFor({ timeout: 30_000 });
    await card(page, 'Message').locator('.badge').getByText('Delivered', { exact: true }).waitFor({ timeout: 30_000 });
    const rows = await log.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
    assert.ok(rows.length >= 1, `log rows: ${JSON.stringify(rows)}`);
    for (const [time, channel, result] of rows) {
      assert.ok(time.length > 0 && channel.length > 0, `row has a time and a channel: ${JSON.stringify(rows)}`);
      assert.ok(['Success', 'Failed'].includes(result), `result is Success or Failed: ${result}`);
    }
    const history = await card(page, 'State history')
      .locator('.timeline__item')
      .evaluateAll((lis) =>
        lis.map((li) => ({
          states: li.querySelector('.timeline__states').textContent.replace(/\s+/g, ' ').trim(),
          detail: li.querySelector('.timeline__detail')?.textContent ?? '',
        })),
      );
    assert.equal(history[0].states, 'Scheduled', `history starts at Scheduled: ${JSON.stringify(history)}`);
    assert.ok(
      history.some((h) => h.states.endsWith('Delivered')),
      `history reaches Delivered: ${JSON.stringify(history)}`,
    );
    assert.ok(
      history.every((h) => h.detail.length > 0),
      'every step says why',
    );
    await screenshot(page, 'message-view-released');
    await assertNoSeriousAxeViolations(page, '/app/messages/view (released)');

    // My Messages: All has both, Pending the rule message, Sent the released one.
    await page.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'My Messages' }).click();
    await h1(page, 'My Messages').waitFor();
    const titles = () => page.locator('.message-item__title').allTextContents();
    const filters = page.getByRole('group', { name: 'Show messages' });
    await page.locator('.message-item').nth(1).waitFor();
    assert.deepEqual(await titles(), [releaseText, ruleText], 'All: newest first');
    await filters.getByRole('button', { name: 'Pending', exact: true }).click();
    await page.waitForURL(/filter=pending/);
    await page.waitForFunction((t) => [...document.querySelectorAll('.message-item__title')].map((e) => e.textContent).join('|') === t, ruleText);
    assert.equal(await filters.getByRole('button', { name: 'Pending' }).getAttribute('aria-pressed'), 'true');
    await filters.getByRole('button', { name: 'Sent', exact: true }).click();
    await page.waitForFunction((t) => [...document.querySelectorAll('.message-item__title')].map((e) => e.textContent).join('|') === t, releaseText);
    const sentItem = page.locator('.message-item').first();
    await sentItem.locator('.badge').getByText('Delivered', { exact: true }).waitFor();
    assert.ok((await sentItem.locator('time').getAttribute('datetime')).length > 0, 'deliver_at is shown');
    await screenshot(page, 'my-messages-sent');
    await assertNoSeriousAxeViolations(page, '/app/messages?filter=sent');
    await filters.getByRole('button', { name: 'All', exact: true }).click();
    await page.locator('.message-item').nth(1).waitFor();
    await page.getByRole('link', { name: `View message: ${ruleText}` }).click();
    await page.waitForURL(`**/app/messages/view/${idA}`);
    await card(page, 'Message').getByRole('button', { name: 'Release now' }).waitFor();
    assert.deepEqual(unexpectedConsoleErrors(s.errors, [422]), [], 'no console errors besides the E2EE 422');

    // The recipient: the released message is in the Inbox (the rule message is not), opens without sender actions.
    r = await signedIn(recipient, '/app/inbox');
    const rp = r.page;
    await h1(rp, 'Inbox').waitFor();
    const inboxItem = rp.locator('.message-item', { hasText: releaseText });
    await inboxItem.waitFor();
    assert.equal(await rp.locator('.message-item', { hasText: ruleText }).count(), 0, 'the unreleased message is not in the inbox');
    await inboxItem.getByRole('heading', { name: `From ${sender.email}` }).waitFor();
    assert.ok((await inboxItem.locator('time').getAttribute('datetime')).length > 0, 'release time shown');
    await assertNoSeriousAxeViolations(rp, '/app/inbox');
    await inboxItem.getByRole('link', { name: /^Open/ }).click();
    // The recipient's own page, under the Inbox (tests/e2e/recipient-view.test.mjs walks it in full).
    await rp.waitForURL(`**/app/inbox/${idB}`);
    await h1(rp, `Message from ${sender.email}`).waitFor();
    await card(rp, 'Message').getByText(releaseText).waitFor();
    await card(rp, 'Message').locator('audio').waitFor();
    assert.equal(await rp.getByRole('button', { name: 'Release now' }).count(), 0, 'no sender actions for the recipient');
    assert.equal(await rp.getByRole('button', { name: 'Cancel message' }).count(), 0);
    await rp.getByRole('link', { name: 'Back to your Inbox' }).waitFor();
    await assertNoSeriousAxeViolations(rp, '/app/inbox/{id} (recipient)');

    // The recipient cannot open the sender's unreleased message.
    await rp.goto(`/app/messages/view/${idA}`);
    await rp.getByText('This message could not be found.').waitFor();

    // The Outbox, linked apart from the nine main sidebar entries, is the recipient's local mailbox: it shows
    // the email that would have gone out to them — who left a message and the link, never its words.
    await rp.getByRole('navigation', { name: 'Local development' }).getByRole('link', { name: 'Outbox' }).click();
    await h1(rp, 'Outbox').waitFor();
    await rp.getByText('This is your local mailbox: what Afterword would have sent to you', { exact: false }).waitFor();
    const mail = rp.locator('.outbox-item', { hasText: `A message from ${sender.email}` }).first();
    await mail.waitFor({ timeout: 30_000 });
    assert.match(await mail.textContent(), new RegExp(recipient.email.replace(/[.+]/g, '\\$&')));
    assert.match(await mail.textContent(), /left you a message( with a voice recording)? on Afterword/);
    assert.equal(await rp.locator('.outbox-item', { hasText: releaseText }).count(), 0, 'the words stay in the app');
    await mail.locator('.badge').getByText('Email', { exact: true }).waitFor();
    await screenshot(rp, 'outbox');
    await assertNoSeriousAxeViolations(rp, '/app/outbox');
    assert.deepEqual(unexpectedConsoleErrors(r.errors, [404]), [], 'no console errors besides the 404 of the hidden message');
  } finally {
    await s.context.close();
    await r?.context.close();
  }
});

test('messages: create form: no required check, Creating… while sending, server details under the fields', async () => {
  const acct = await accountWithToken();
  const { page, context, errors, requests } = await signedIn(acct, '/app/create');
  try {
    await h1(page, 'Create Message').waitFor();
    // Hold the create call so the submitting state can be seen.
    let release;
    const held = new Promise((res) => (release = res));
    await page.route('**/api/trpc/message.create**', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Add rule', exact: true }).click();
    await page.getByRole('button', { name: 'Create message', exact: true }).click();
    const busy = page.getByRole('button', { name: 'Creating…', exact: true });
    await busy.waitFor();
    assert.equal(await busy.isDisabled(), true);
    await busy.click({ force: true }).catch(() => undefined);
    await page.locator('form[aria-label="Create message"]').evaluate((f) => f.requestSubmit());
    release();
    await toast(page, 'Failed to create message').waitFor();
    assert.equal(calls(requests, 'message.create').length, 1, 'repeat submits were ignored');
    // The server's sentence, read with the form's label (web/src/lib/field-labels.ts).
    await page.getByText('Recipient User ID must be a whole ID (36 letters, digits and dashes)').waitFor();
    const ruleError = page.getByRole('group', { name: 'Rule 1' }).locator('.field__error').first();
    await ruleError.waitFor();
    assert.ok((await ruleError.textContent()).trim().length > 0, 'the blank count has its own error under it');
    assert.equal(await page.getByLabel('Recipient User ID').getAttribute('aria-invalid'), 'true');
    await screenshot(page, 'create-message-422');
    assert.deepEqual(unexpectedConsoleErrors(errors, [422]), []);
  } finally {
    await context.close();
  }
});

test('messages: notifications page: preferences, profile time zone from the browser, phone verification through the outbox', async () => {
  const acct = await accountWithToken();
  const { page, context, errors } = await signedIn(acct, '/app/notifications');
  try {
    await h1(page, 'Notifications').waitFor();
    const prefs = card(page, 'Preferences');
    await prefs.getByLabel('Email', { exact: true }).waitFor();
    await prefs.getByLabel('Push', { exact: true }).uncheck();
    await prefs.getByLabel('Start').fill('21:30');
    await prefs.getByLabel('Canary events').uncheck();
    await prefs.getByRole('button', { name: 'Save preferences' }).click();
    await toast(page, 'Preferences saved').waitFor();
    const saved = (await api('GET', '/api/notify/preferences', { token: acct.token })).json;
    assert.equal(saved.quiet_hours.start, '21:30');
    assert.equal(saved.alerts.canary_events, false);
    assert.deepEqual(saved.methods, ['email']);

    const profile = card(page, 'Profile');
    assert.equal(await profile.getByLabel('Time zone').inputValue(), TIME_ZONE, "a server default of UTC is prefilled with the browser's zone");
    await profile.getByText(acct.user.id).waitFor();
    await profile.getByLabel('Display name').fill('Ada Lovelace');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await toast(page, 'Profile saved').waitFor();
    const me = (await api('GET', '/api/profile', { token: acct.token })).json;
    assert.equal(me.time_zone, TIME_ZONE);
    assert.equal(me.display_name, 'Ada Lovelace');

    // Phone: Send code → the SMS lands in the outbox → Verify → shown verified, then removed.
    const phone = card(page, 'Phone number');
    const number = `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    await phone.getByRole('textbox', { name: 'Phone number' }).fill(number);
    await phone.getByRole('button', { name: 'Send code' }).click();
    await toast(page, 'Code sent').waitFor();
    const codeInput = phone.getByLabel('Verification code');
    await codeInput.waitFor();
    // Read from this account's own mailbox: the code is for the account that asked for it.
    const outbox = (await api('GET', '/api/outbox?limit=50', { token: acct.token })).json.messages;
    const text = outbox.find((m) => m.channel === 'sms' && m.address === number)?.text ?? '';
    const code = /(\d{6})/.exec(text)?.[1];
    assert.ok(code, `the code was texted to the outbox: ${JSON.stringify(text)}`);
    await codeInput.fill(code);
    await phone.getByRole('button', { name: 'Verify', exact: true }).click();
    await toast(page, 'Phone number verified').waitFor();
    await phone.getByText('Verified', { exact: true }).waitFor();
    await phone.getByText(number, { exact: true }).waitFor();
    // With a verified number, SMS can be chosen.
    await prefs.getByLabel('SMS', { exact: true }).check();
    await prefs.getByRole('button', { name: 'Save preferences' }).click();
    await toast(page, 'Preferences saved').waitFor();
    await eventually(async () => (await api('GET', '/api/notify/preferences', { token: acct.token })).json.methods.includes('sms'), 'sms saved');
    await assertNoSeriousAxeViolations(page, '/app/notifications');
    await screenshot(page, 'notifications');
    await phone.getByRole('button', { name: 'Remove phone number' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this phone number?' });
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await toast(page, 'Phone number removed').waitFor();
    await phone.getByRole('textbox', { name: 'Phone number' }).waitFor();

    // Push on this device: offered, and nothing is registered before the user asks.
    await card(page, 'Push on this device').getByRole('button', { name: 'Enable push on this device' }).waitFor();
    assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 0, 'no service worker until asked');
    assert.deepEqual(unexpectedConsoleErrors(errors), []);
  } finally {
    await context.close();
  }
});

test('messages: at 375 px the new pages do not scroll sideways', async () => {
  const acct = await accountWithToken();
  const { page, context } = await signedIn(acct, '/app/create', { width: 375 });
  try {
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await h1(page, 'Create Message').waitFor();
    await page.getByRole('button', { name: 'Add rule', exact: true }).click();
    await page.getByLabel('Use end-to-end encryption').check();
    assert.ok((await overflow()) <= 0, `/app/create scrolls sideways by ${await overflow()}px`);
    await screenshot(page, 'create-message-375');
    for (const [path, title] of [
      ['/app/messages', 'My Messages'],
      ['/app/inbox', 'Inbox'],
      ['/app/outbox', 'Outbox'],
      ['/app/notifications', 'Notifications'],
    ]) {
      await page.goto(path);
      await h1(page, title).waitFor();
      await page.waitForTimeout(300);
      assert.ok((await overflow()) <= 0, `${path} scrolls sideways by ${await overflow()}px`);
    }
  } finally {
    await context.close();
  }
});
