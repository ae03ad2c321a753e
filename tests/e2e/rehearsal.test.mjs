// "Test everything": on Canary Status the owner runs a rehearsal and lands on its report — a timeline of what would
// happen if they stopped checking in, what each TEST copy reached, and the gaps first (here: no push device).
// The TEST copy is in their outbox; nothing real changed (the canary's deadline is where it was).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sharedBrowser, screenshot } from '../support/browser.mjs';
import { api } from '../support/http.mjs';
import { assertNoSeriousAxeViolations } from '../support/page.mjs';
import { accountWithToken, signedInPage } from '../support/session.mjs';

const getBrowser = sharedBrowser({ after });

test('rehearsal: Test everything shows the timeline, what reached the owner and the gap, and changes nothing', async () => {
  const owner = await accountWithToken();
  const prefs = await api('POST', '/api/notify/preferences', {
    token: owner.token,
    body: { methods: ['email', 'push'], quiet_hours: { start: '00:00', end: '00:00' }, alerts: { vaults: true, messages: true, canary_events: true } },
  });
  assert.equal(prefs.status, 200, prefs.text);
  const created = await api('POST', '/api/canary/create', { token: owner.token, body: { interval_seconds: 86_400, name: 'Daily' } });
  assert.equal(created.status, 201, created.text);

  const { page, context, errors } = await signedInPage(await getBrowser(), owner.token, '/app/canary-status');
  try {
    await page.getByLabel('Also tell my recipients it is a rehearsal').waitFor();
    await page.getByRole('button', { name: 'Test everything' }).click();
    await page.waitForURL(/\/app\/rehearsal\/[0-9a-f-]{36}$/);
    const gaps = page.getByTestId('rehearsal-gaps');
    await gaps.waitFor();
    assert.match(await gaps.textContent(), /push: no device registered — this warning would not reach you by push/);
    const timeline = page.getByRole('list', { name: 'What would happen' });
    const reminder = timeline.locator('li[data-kind="warning"]').first();
    assert.match(await reminder.textContent(), /Reminder: "Daily" enters its grace period/);
    assert.match(await reminder.getByRole('list', { name: 'What the TEST copy reached' }).textContent(), /Email .*: accepted/);
    assert.ok((await timeline.locator('li[data-kind="miss"]').count()) >= 1, 'the miss is on the timeline');
    await screenshot(page, 'rehearsal-report');
    await assertNoSeriousAxeViolations(page, 'the rehearsal report');

    const outbox = await api('GET', '/api/outbox', { token: owner.token });
    const copy = outbox.json.messages.find((m) => m.subject.startsWith('TEST — rehearsal: Check in before'));
    assert.ok(copy, `the TEST copy is in the outbox: ${outbox.json.messages.map((m) => m.subject).join(' | ')}`);
    assert.match(copy.text, /^This is a rehearsal: nothing was released and nothing was counted/);
    const [canary] = (await api('GET', '/api/canary/list', { token: owner.token })).json;
    assert.equal(canary.last_check_in, created.json.last_check_in, 'the canary is as it was');

    // Back on Canary Status the report is listed; a second run within 10 minutes is refused with the server's words.
    await page.goto('/app/canary-status');
    await page.getByRole('list', { name: 'Your rehearsals' }).getByRole('link').first().waitFor();
    await page.getByRole('button', { name: 'Test everything' }).click();
    await page
      .getByText(/One rehearsal per 10 minutes/)
      .first()
      .waitFor();
    // The refused run is the one console error: its 429 answer.
    assert.deepEqual(
      errors.filter((e) => !/status of 429/.test(e.text)),
      [],
    );
  } finally {
    await context.close();
  }
});
