// The owner's warnings on their own channels: a one-minute canary enters its grace period, the reminder
// reaches the owner's outbox (their email, locally), and Canary Status says where it went; the reminder's
// one-tap link checks the canary in from a signed-out phone, once. The Notifications page says which warnings always come.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { newContext, sharedBrowser, screenshot } from '../support/browser.mjs';
import { api } from '../support/http.mjs';
import { accountWithToken, signedInPage } from '../support/session.mjs';

const getBrowser = sharedBrowser({ after });

test('owner warnings: the grace reminder reaches the owner’s email, Canary Status shows where it went, and its link checks in once', async () => {
  const owner = await accountWithToken();
  // No quiet hours, so the reminder is not held back whatever the hour of the run.
  const prefs = await api('POST', '/api/notify/preferences', {
    token: owner.token,
    body: { methods: ['email', 'push'], quiet_hours: { start: '00:00', end: '00:00' }, alerts: { vaults: true, messages: true, canary_events: true } },
  });
  assert.equal(prefs.status, 200, prefs.text);
  // The shortest interval: grace is its last 12 s, so the reminder is due 48 s from now.
  const created = await api('POST', '/api/canary/create', { token: owner.token, body: { interval_seconds: 60, name: 'Minute' } });
  assert.equal(created.status, 201, created.text);

  const { page, context, errors } = await signedInPage(await getBrowser(), owner.token, '/app/notifications');
  try {
    await page.getByTestId('always-warned').waitFor();
    assert.match(await page.getByTestId('always-warned').textContent(), /Always sent, whatever these switches say/);

    await page.goto('/app/canary-status');
    const warnings = page.locator('section.card', { has: page.getByRole('heading', { name: 'Warnings to you', exact: true }) });
    await warnings.getByText('No warnings yet.').waitFor();
    // The reminder's delivery shows within the page's refresh once the canary enters grace (12 s later the
    // canary misses, and the miss is listed above it, newest first).
    const reminderLine = warnings.getByTestId('canary-warnings').locator('li', { hasText: 'Grace-period reminder' });
    await reminderLine.waitFor({ timeout: 100_000 });
    assert.match(await reminderLine.textContent(), /Emailed you \d\d:\d\d/);

    // The same reminder is in the owner's outbox: the words say what state the canary is in and link back.
    const outbox = await api('GET', '/api/outbox', { token: owner.token });
    const reminder = outbox.json.messages.find((m) => /^Check in before .*"Minute"$/.test(m.subject));
    assert.ok(reminder, `the reminder is in the outbox: ${outbox.json.messages.map((m) => m.subject).join(' | ')}`);
    assert.match(reminder.text, /is in its grace period/);
    const link = /https?:\/\/\S+\/check-in\/[A-Za-z0-9_-]{78}/.exec(reminder.text)?.[0];
    assert.ok(link, `the reminder carries a one-tap check-in link: ${reminder.text}`);
    await screenshot(page, 'owner-warnings-canary-status');

    // The link, opened signed out (a phone's mail app): one button, and only pressing it checks in.
    const before = (await api('GET', '/api/canary/list', { token: owner.token })).json[0].last_check_in;
    const phone = await newContext(await getBrowser(), { width: 390, height: 844 });
    const linkPage = await phone.context.newPage();
    try {
      await linkPage.goto(new URL(link).pathname);
      await linkPage.getByText('Press the button to check in your canary “Minute”', { exact: false }).waitFor();
      assert.equal((await api('GET', '/api/canary/list', { token: owner.token })).json[0].last_check_in, before, 'opening the link checked nothing in');
      await linkPage.getByRole('button', { name: 'I’m here — check in' }).click();
      await linkPage.getByRole('status').getByText('Checked in.').waitFor();
      await screenshot(linkPage, 'check-in-link-done');
      const after = (await api('GET', '/api/canary/list', { token: owner.token })).json[0].last_check_in;
      assert.ok(Date.parse(after) > Date.parse(before), `the press checked in: ${before} → ${after}`);
      // Used once: opened again, it says so and has no button.
      await linkPage.reload();
      await linkPage.getByText(/This link was already used/).waitFor();
      assert.equal(await linkPage.getByRole('button', { name: 'I’m here — check in' }).count(), 0);
      assert.deepEqual(phone.errors, []);
    } finally {
      await phone.context.close();
    }
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
