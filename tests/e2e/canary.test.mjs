// Canary pages (docs/product.md "Canaries and check-ins", docs/product.md "Dead-man's switch"): Canary Status
// (create, validation, ping URL, check-in, delete), the dashboard's Canary Summary and Recent Activity, the
// dead-man's switch, browser notifications and the title under a fake clock, test mode, the Free plan limit,
// and axe scans.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { newContext, sharedBrowser, screenshot } from '../support/browser.mjs';
import { api, origin } from '../support/http.mjs';
import { assertNoSeriousAxeViolations, toast } from '../support/page.mjs';
import { accountWithToken } from '../support/session.mjs';

const getBrowser = sharedBrowser({ after });

const HOURS_ERROR = 'Enter a number of hours greater than 0.';
const DEADMAN_CONFIRM = 'This will delete your account if you miss check-ins. Continue?';

/** Records `new Notification(title, {body})` into window.__notifications, permission already granted. */
function stubNotifications() {
  window.__notifications = [];
  class FakeNotification {
    static permission = 'granted';
    static requestPermission() {
      return Promise.resolve('granted');
    }
    constructor(title, options = {}) {
      window.__notifications.push({ title, body: options.body });
    }
    close() {}
  }
  Object.defineProperty(window, 'Notification', { value: FakeNotification, writable: true, configurable: true });
}

/**
 * A fresh account and context; optionally a Notification stub, Playwright's clock (installed at real
 * time before the first load), localStorage extras (e.g. testMode) and a canary made over the API.
 */
async function setup({ path = '/app', notifications = false, clock = false, storage = {}, canary } = {}) {
  const acct = await accountWithToken();
  let created;
  if (canary) {
    const res = await api('POST', '/api/canary/create', { token: acct.token, body: canary });
    assert.equal(res.status, 201, `create canary over the API: ${res.text}`);
    created = res.json;
  }
  const { context, errors } = await newContext(await getBrowser());
  if (notifications) await context.addInitScript(stubNotifications);
  const page = await context.newPage();
  if (clock) await page.clock.install({ time: Date.now() });
  const requests = [];
  page.on('request', (r) => requests.push({ method: r.method(), url: r.url() }));
  await page.goto('/');
  await page.evaluate(
    (entries) => {
      for (const [k, v] of entries) localStorage.setItem(k, v);
    },
    Object.entries({ token: acct.token, hasSeenOnboarding: 'true', ...storage }),
  );
  await page.goto(path);
  return { acct, page, context, errors, requests, canary: created };
}

/** The tRPC procedures a request URL calls (httpBatchLink joins them with commas). */
function procedures(requestUrl) {
  const p = new URL(requestUrl).pathname;
  return p.startsWith('/api/trpc/') ? decodeURIComponent(p.slice('/api/trpc/'.length)).split(',') : [];
}
const calls = (requests, proc) => requests.filter((r) => procedures(r.url).includes(proc));

const card = (page, title) => page.locator('section.card', { has: page.getByRole('heading', { name: title, exact: true }) });
const notificationsShown = (page) => page.evaluate(() => window.__notifications);
const count = (list, title) => list.filter((n) => n.title === title).length;

/** '23 h 59 min 58 s' / '4 min 05 s' / '3 d 4 h 5 min' / '12 s' → seconds. */
function parseRemaining(text) {
  const unit = { d: 86_400, h: 3600, min: 60, s: 1 };
  let total = 0;
  let matched = false;
  for (const [, n, u] of text.matchAll(/(\d+)\s*(d|h|min|s)\b/g)) {
    total += Number(n) * unit[u];
    matched = true;
  }
  assert.ok(matched, `not a countdown: ${JSON.stringify(text)}`);
  return total;
}

/** The dashboard's health badge (Active / Grace / Missed). */
const health = (page) => card(page, 'Canary Summary').locator('dd .badge').first();

function assertNoConsoleErrors(errors) {
  assert.deepEqual(errors, [], 'no console errors or uncaught exceptions');
}

test('canary pages: canary status: hours validation sends nothing; create, ping URL and token, check in, delete', async () => {
  const { acct, page, context, errors, requests } = await setup({ path: '/app/canary-status' });
  try {
    await page.getByRole('heading', { level: 1, name: 'Canary Status' }).waitFor();
    await card(page, 'Your canaries').getByText('No canaries yet.').waitFor();
    const hours = page.getByLabel('Check-in interval (hours)');
    assert.equal(await hours.inputValue(), '24', 'default interval is 24 hours');
    const create = page.getByRole('button', { name: 'Create canary', exact: true });

    for (const bad of ['0', '-1', 'abc']) {
      await hours.fill(bad);
      await create.click();
      await page.getByText(HOURS_ERROR, { exact: true }).waitFor();
      assert.equal(await hours.getAttribute('aria-invalid'), 'true', `${bad}: the field is marked invalid`);
    }
    await page.waitForTimeout(300);
    assert.deepEqual(calls(requests, 'canary.create'), [], 'no canary.create request for 0, -1 or abc');
    assert.equal((await api('GET', '/api/canary/list', { token: acct.token })).json.length, 0);

    await hours.fill('12');
    await create.click();
    await toast(page, 'Canary created').waitFor();
    assert.equal(calls(requests, 'canary.create').length, 1, 'exactly one canary.create request');
    assert.equal(await page.getByText(HOURS_ERROR, { exact: true }).count(), 0, 'the error is gone');

    const list = (await api('GET', '/api/canary/list', { token: acct.token })).json;
    assert.equal(list.length, 1);
    const [canary] = list;
    assert.equal(canary.interval_seconds, 12 * 3600, '12 hours sent as 43200 seconds');
    assert.equal(canary.name, '');
    const { token } = canary;
    assert.match(token, /^\S{32,}$/);

    assert.equal(await page.evaluate(() => localStorage.getItem('canaryToken')), token, 'token cached in localStorage canaryToken');
    await page.getByRole('heading', { level: 3, name: 'Unnamed', exact: true }).waitFor();

    const o = origin();
    await page.getByText(`POST ${o}/api/ping/${token}`, { exact: true }).waitFor();
    const curl = (await page.locator('.code-block').allTextContents()).map((t) => t.trim());
    assert.deepEqual(curl, [`curl -X POST ${o}/api/ping/${token}`]);
    for (const name of ['Copy token for Unnamed', 'Copy curl command for Unnamed', 'Delete canary Unnamed']) {
      await page.getByRole('button', { name, exact: true }).waitFor();
    }

    const ping = await fetch(`${o}/api/ping/${token}`, { method: 'POST' });
    assert.equal(ping.status, 200, 'the token shown on the page checks in');

    await page.getByText('Status:').locator('.badge').getByText('OK', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Check in now', exact: true }).click();
    await toast(page, 'Check-in received').waitFor();
    await screenshot(page, 'canary-status-created');

    // Cancel keeps the canary.
    const deleteButton = page.getByRole('button', { name: 'Delete canary Unnamed', exact: true });
    const dialog = page.getByRole('dialog', { name: 'Delete this canary?', exact: true });
    await deleteButton.click();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await api('GET', '/api/canary/list', { token: acct.token })).json.length, 1, 'Cancel deletes nothing');

    await deleteButton.click();
    await dialog.waitFor();
    assert.equal((await dialog.getByRole('heading').first().textContent()).trim(), 'Delete this canary?');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).waitFor();
    await screenshot(page, 'canary-delete-dialog');
    await dialog.getByRole('button', { name: 'Delete canary', exact: true }).click();
    await toast(page, 'Canary deleted').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await card(page, 'Your canaries').getByText('No canaries yet.').waitFor();

    const gone = await fetch(`${o}/api/ping/${token}`, { method: 'POST' });
    assert.equal(gone.status, 404, "a deleted canary's token stops working at once");

    // The Free plan's one slot is free again.
    await hours.fill('1');
    await page.getByLabel('Name (optional)').fill('Again');
    await create.click();
    await toast(page, 'Canary created').waitFor();
    await page.getByRole('heading', { level: 3, name: 'Again', exact: true }).waitFor();
    assertNoConsoleErrors(errors);
  } finally {
    await context.close();
  }
});

test('canary pages: calendar schedule: weekly days at a time in a zone, shown in words; pause for vacation and end it', async () => {
  const { acct, page, context, errors } = await setup({ path: '/app/canary-status' });
  try {
    await page.getByRole('heading', { level: 1, name: 'Canary Status' }).waitFor();
    await page.getByLabel('On days of the week', { exact: true }).check();
    assert.equal(await page.getByLabel('Check-in interval (hours)').count(), 0, 'the interval field gives way to the schedule');
    await page.getByLabel('Thursday', { exact: true }).check();
    await page.getByLabel('Check in by (time)').fill('09:30');
    await page.getByLabel('Time zone', { exact: true }).selectOption('Europe/Berlin');
    await page.getByLabel('Remind me before (hours)').fill('2');
    await page.getByLabel('Name (optional)').fill('Weekly');
    await page.getByRole('button', { name: 'Create canary', exact: true }).click();
    await toast(page, 'Canary created').waitFor();
    const [canary] = (await api('GET', '/api/canary/list', { token: acct.token })).json;
    assert.deepEqual(canary.schedule, { kind: 'weekly', days: ['mon', 'thu'], time: '09:30', time_zone: 'Europe/Berlin', grace_seconds: 7200 });
    // In the canary's entry (and in the status card above it, which shows the earliest canary).
    await page.locator('.canary-item').getByText('Every Monday and Thursday by 09:30 (Europe/Berlin), reminded 2 hours before', { exact: true }).waitFor();

    // A vacation: until the start of a day ten days ahead (the browser's zone), then ended early.
    const d = new Date(Date.now() + 10 * 86_400_000);
    const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    await page.getByLabel(/^Pause for vacation until/).fill(day);
    await page.getByRole('button', { name: 'Pause for vacation Weekly', exact: true }).click();
    await toast(page, 'Canary paused').waitFor();
    await page.getByText(/^Paused for a vacation until/).waitFor();
    const paused = (await api('GET', '/api/canary/list', { token: acct.token })).json[0];
    assert.ok(paused.paused_until, 'the list says until when');
    assert.ok(Date.parse(paused.deadline) > Date.parse(paused.paused_until), 'the deadline lies after the pause');
    await screenshot(page, 'canary-calendar-paused');
    await page.getByRole('button', { name: 'End the pause now for Weekly', exact: true }).click();
    await toast(page, 'Pause ended').waitFor();
    assert.equal((await api('GET', '/api/canary/list', { token: acct.token })).json[0].paused_until, null);
    assertNoConsoleErrors(errors);
  } finally {
    await context.close();
  }
});

/**
 * The first Monday 10:00 in Berlin after `afterMs`, read with Intl alone (the product uses Temporal): an
 * independent check of the deadline the page and the server give.
 */
function nextMondayTenBerlin(afterMs) {
  const parts = (at) =>
    Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone: 'Europe/Berlin',
        weekday: 'short',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        timeZoneName: 'longOffset',
      })
        .formatToParts(at)
        .map((p) => [p.type, p.value]),
    );
  for (let k = 0; k < 15; k++) {
    const p = parts(afterMs + k * 86_400_000);
    if (p.weekday !== 'Mon') continue;
    const [, sign, hh, mm] = /GMT([+-])(\d\d):(\d\d)/.exec(p.timeZoneName) ?? [null, '+', '00', '00'];
    const offsetMs = (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm)) * 60_000;
    const at = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), 10, 0) - offsetMs;
    if (at > afterMs) return at;
  }
  throw new Error('no Monday within two weeks');
}

test('canary pages: edit schedule: an interval canary becomes every Monday at 10:00 Europe/Berlin; the new deadline is said before saving', async () => {
  const { acct, page, context, errors, requests } = await setup({ path: '/app/canary-status', canary: { interval_seconds: 86_400, name: 'Weekly walk' } });
  try {
    await page.getByRole('heading', { level: 3, name: 'Weekly walk', exact: true }).waitFor();
    const dialog = page.getByRole('dialog', { name: 'Edit the schedule of “Weekly walk”', exact: true });
    const edit = page.getByRole('button', { name: 'Edit schedule for Weekly walk', exact: true });
    await edit.click();
    await dialog.waitFor();
    // Pre-filled with what the canary has: every 24 hours.
    assert.equal(await dialog.getByLabel('Every few hours (an interval)', { exact: true }).isChecked(), true);
    assert.equal(await dialog.getByLabel('Check-in interval (hours)').inputValue(), '24');

    await dialog.getByLabel('On days of the week', { exact: true }).check();
    await dialog.getByLabel('Monday', { exact: true }).check();
    await dialog.getByLabel('Check in by (time)').fill('10:00');
    await dialog.getByLabel('Time zone', { exact: true }).selectOption('Europe/Berlin');
    assert.equal(await dialog.getByLabel('Remind me before (hours)').inputValue(), '1');

    // What changes, before saving: the first Monday 10:00 Berlin after the last check-in plus the hour's reminder.
    const [before] = (await api('GET', '/api/canary/list', { token: acct.token })).json;
    const expected = new Date(nextMondayTenBerlin(Date.parse(before.last_check_in) + 3600_000)).toISOString();
    const changes = dialog.getByRole('region', { name: 'What changes', exact: true });
    await changes.getByText('Every Monday by 10:00 (Europe/Berlin), reminded 1 hour before', { exact: false }).waitFor();
    await changes.locator(`time[datetime="${expected}"]`).waitFor();
    await assertNoSeriousAxeViolations(page, 'edit schedule dialog');
    await screenshot(page, 'canary-edit-schedule');

    // A problem is shown under its field, and nothing is sent.
    await dialog.getByLabel('Monday', { exact: true }).uncheck();
    await dialog.getByRole('button', { name: 'Save schedule', exact: true }).click();
    await dialog.getByRole('group', { name: 'Check in by the time below on' }).getByText('Choose at least one day of the week.', { exact: true }).waitFor();
    assert.deepEqual(calls(requests, 'canary.update'), [], 'no canary.update request without a weekday');
    await dialog.getByLabel('Monday', { exact: true }).check();

    await dialog.getByRole('button', { name: 'Save schedule', exact: true }).click();
    await toast(page, 'Schedule saved').waitFor();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(calls(requests, 'canary.update').length, 1, 'saved through tRPC canary.update (PATCH /api/canary/{id})');
    const [after] = (await api('GET', '/api/canary/list', { token: acct.token })).json;
    assert.deepEqual(after.schedule, { kind: 'weekly', days: ['mon'], time: '10:00', time_zone: 'Europe/Berlin', grace_seconds: 3600 });
    assert.equal(after.deadline, expected, 'the server gives the deadline the page said');
    const item = page.locator('.canary-item', { has: page.getByRole('heading', { level: 3, name: 'Weekly walk', exact: true }) });
    await item.getByText('Every Monday by 10:00 (Europe/Berlin), reminded 1 hour before', { exact: true }).waitFor();
    await item.locator(`dd time[datetime="${expected}"]`).waitFor();
    // Opened again, the form holds the saved rule; Cancel sends nothing.
    await edit.click();
    await dialog.waitFor();
    assert.equal(await dialog.getByLabel('On days of the week', { exact: true }).isChecked(), true);
    assert.equal(await dialog.getByLabel('Time zone', { exact: true }).inputValue(), 'Europe/Berlin');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(calls(requests, 'canary.update').length, 1);
    assertNoConsoleErrors(errors);
  } finally {
    await context.close();
  }
});

test('canary pages: dashboard: Canary Summary shows Active and a ticking countdown; Heartbeat checks in and shows in Recent Activity', async () => {
  const { page, context, errors } = await setup({ path: '/app', clock: true, canary: { interval_seconds: 3600, name: 'Daily phone' } });
  try {
    const summary = card(page, 'Canary Summary');
    await summary.waitFor();
    const meter = page.getByRole('meter', { name: 'Time left before the deadline', exact: true });
    await meter.waitFor();
    assert.equal((await health(page).textContent()).trim(), 'Active');
    const remaining = summary.locator('.canary-summary__remaining');
    const before = parseRemaining(await remaining.textContent());
    assert.ok(before > 3500 && before <= 3600, `about an hour left: ${before}s`);
    const meterBefore = Number(await meter.getAttribute('aria-valuenow'));
    assert.ok(meterBefore >= 97 && meterBefore <= 100, `meter near full: ${meterBefore}`);

    await page.clock.runFor(5000);
    const afterTick = parseRemaining(await remaining.textContent());
    assert.ok(before - afterTick >= 4 && before - afterTick <= 15, `countdown ticked down by ~5s: ${before} → ${afterTick}`);
    assert.match(await meter.getAttribute('aria-valuetext'), /left \(\d+ %\)$/);

    const activity = card(page, 'Recent Activity');
    await activity.getByText('Created canary "Daily phone".', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Heartbeat', exact: true }).click();
    await toast(page, 'Check-in received').waitFor();
    await activity.getByText('Checked in with the button in the app: "Daily phone".', { exact: true }).waitFor();
    await screenshot(page, 'dashboard-canary');
    assertNoConsoleErrors(errors);
  } finally {
    await context.close();
  }
});

test("canary pages: dead-man's switch: hours, the exact confirm, On with a listed deletion; cancel → Off and none listed", async () => {
  const { page, context, errors } = await setup({ path: '/app/canary-status', canary: { interval_seconds: 86_400 } });
  try {
    const badge = page.getByText("Dead-man's switch:").locator('.badge');
    await badge.getByText('Off', { exact: true }).waitFor();
    const sessionToken = await page.evaluate(() => localStorage.getItem('token'));
    assert.deepEqual((await api('GET', '/api/legal/deletions', { token: sessionToken })).json.items, []);

    await page.getByLabel('Hours without a check-in').fill('48');
    await page.getByRole('button', { name: "Set up dead-man's switch", exact: true }).click();
    const dialog = page.getByRole('dialog', { name: DEADMAN_CONFIRM, exact: true });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).waitFor();
    await screenshot(page, 'deadman-confirm');
    await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
    await toast(page, "Dead-man's switch is on").waitFor();
    await dialog.waitFor({ state: 'detached' });
    await badge.getByText('On', { exact: true }).waitFor();
    await page.getByRole('button', { name: "Change dead-man's switch", exact: true }).waitFor();

    const listed = await api('GET', '/api/legal/deletions', { token: sessionToken });
    assert.equal(listed.status, 200);
    assert.equal(listed.json.items.length, 1, `one deletion listed: ${listed.text}`);
    assert.equal(listed.json.items[0].type, 'account');
    const inHours = (Date.parse(listed.json.items[0].deletion_date) - Date.now()) / 3_600_000;
    assert.ok(inHours >= 47.9, `the deletion is dated after the 48-hour deadline (${inHours.toFixed(2)} h away)`);

    await page.getByRole('button', { name: "Cancel dead-man's switch", exact: true }).click();
    await toast(page, "Dead-man's switch cancelled").waitFor();
    await badge.getByText('Off', { exact: true }).waitFor();
    assert.deepEqual((await api('GET', '/api/legal/deletions', { token: sessionToken })).json.items, []);
    assertNoConsoleErrors(errors);
  } finally {
    await context.close();
  }
});

test('canary pages: notifications and title with a fake clock: reminder 60 s before, one miss, warning title, re-armed by Heartbeat', async () => {
  const { acct, page, context, errors } = await setup({ path: '/app/canary-status', notifications: true, clock: true });
  try {
    await page.getByRole('heading', { level: 1, name: 'Canary Status' }).waitFor();
    // Two minutes in hours, as the form takes it (2/60 = 0.0333…).
    await page.getByLabel('Check-in interval (hours)').fill(String(2 / 60));
    await page.getByRole('button', { name: 'Create canary', exact: true }).click();
    await toast(page, 'Canary created').waitFor();
    const [canary] = (await api('GET', '/api/canary/list', { token: acct.token })).json;
    assert.equal(canary.interval_seconds, 120, '2/60 hours is sent as 120 seconds');

    await page.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL('**/app');
    await page.getByRole('meter', { name: 'Time left before the deadline', exact: true }).waitFor();
    assert.deepEqual(await notificationsShown(page), [], 'nothing yet');

    await page.clock.runFor(61_000);
    let shown = await notificationsShown(page);
    assert.deepEqual(shown, [{ title: 'Upcoming check-in', body: 'Please confirm your status soon.' }], 'one reminder 60 s before');
    assert.ok(!(await page.title()).startsWith('⚠'), 'no warning before the deadline');

    await page.clock.runFor(60_000);
    shown = await notificationsShown(page);
    assert.equal(count(shown, 'Upcoming check-in'), 1);
    assert.deepEqual(
      shown.filter((n) => n.title === 'Missed check-in'),
      [{ title: 'Missed check-in', body: 'Your messages may be released.' }],
    );
    await health(page).getByText('Missed', { exact: true }).waitFor();
    assert.ok((await page.title()).startsWith('⚠'), `title warns: ${await page.title()}`);
    const meter = page.getByRole('meter', { name: 'Time left before the deadline', exact: true });
    assert.equal(await meter.getAttribute('aria-valuenow'), '0', 'the meter is empty once missed');
    await page.waitForTimeout(1100); // the bar's 1 s CSS transition runs on real time
    await screenshot(page, 'dashboard-missed-fake-clock');

    await page.clock.runFor(5 * 60_000);
    shown = await notificationsShown(page);
    assert.equal(count(shown, 'Missed check-in'), 1, 'no second Missed check-in for the same deadline');
    assert.equal(count(shown, 'Upcoming check-in'), 1);

    // Back to real time (the server stamps check-ins with it), then a Heartbeat renews the deadline.
    await page.clock.setSystemTime(Date.now());
    await page.getByRole('button', { name: 'Heartbeat', exact: true }).click();
    await toast(page, 'Check-in received').waitFor();
    await page.waitForFunction(() => !document.title.startsWith('⚠'), null, { timeout: 5000 });
    await health(page).getByText('Active', { exact: true }).waitFor();

    await page.clock.runFor(61_000);
    shown = await notificationsShown(page);
    assert.equal(count(shown, 'Upcoming check-in'), 2, `the reminder re-armed after the check-in: ${JSON.stringify(shown)}`);
    assert.equal(count(shown, 'Missed check-in'), 1);
    assertNoConsoleErrors(errors);
  } finally {
    await context.close();
  }
});

test('canary pages: test mode: Simulate missed check-in shows Missed and notifies, without any request that changes the server', async () => {
  const { acct, page, context, errors, requests } = await setup({
    path: '/app',
    notifications: true,
    storage: { testMode: 'true' },
    canary: { interval_seconds: 86_400, name: 'Test mode canary' },
  });
  try {
    await page.getByRole('meter', { name: 'Time left before the deadline', exact: true }).waitFor();
    assert.equal((await health(page).textContent()).trim(), 'Active');
    const statusBefore = (await api('GET', '/api/canary/status', { token: acct.token })).json;
    const from = requests.length;

    await page.getByRole('button', { name: 'Simulate missed check-in', exact: true }).click();
    await health(page).getByText('Missed', { exact: true }).waitFor();
    await page.waitForFunction(() => window.__notifications.some((n) => n.title === 'Missed check-in'), null, { timeout: 5000 });
    assert.deepEqual(await notificationsShown(page), [{ title: 'Missed check-in', body: 'Your messages may be released.' }]);
    assert.ok((await page.title()).startsWith('⚠'), `title warns: ${await page.title()}`);
    await screenshot(page, 'dashboard-test-mode-missed');
    // The Canary Status page (client-side navigation keeps the simulation) says Missed too.
    await page.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'Canary Status' }).click();
    await page.getByRole('heading', { level: 1, name: 'Canary Status' }).waitFor();
    await page.getByText('Status:').locator('.badge').getByText('Missed', { exact: true }).waitFor();
    await page.waitForTimeout(1000);
    assert.equal(count(await notificationsShown(page), 'Missed check-in'), 1, 'still one Missed check-in');

    const sent = requests.slice(from).filter((r) => new URL(r.url).origin === origin());
    const changing = sent.filter(
      (r) => r.method !== 'GET' || /\/api\/(ping|canary\/checkin)/.test(r.url) || procedures(r.url).some((p) => /checkIn|create|delete|setup|cancel/i.test(p)),
    );
    assert.deepEqual(changing, [], 'no check-in or other changing request was sent');
    const statusAfter = (await api('GET', '/api/canary/status', { token: acct.token })).json;
    assert.equal(statusAfter.missed, false, 'the server does not think it was missed');
    assert.equal(statusAfter.last_check_in, statusBefore.last_check_in, 'the server saw no check-in');
    assertNoConsoleErrors(errors);
  } finally {
    await context.close();
  }
});

test("canary pages: plan limit: a second canary on the Free plan shows the server's detail in an error toast", async () => {
  const { acct, page, context, errors, requests } = await setup({ path: '/app/canary-status', canary: { interval_seconds: 86_400, name: 'First' } });
  try {
    await page.getByRole('heading', { level: 3, name: 'First', exact: true }).waitFor();
    await page.getByLabel('Name (optional)').fill('Second');
    await page.getByRole('button', { name: 'Create canary', exact: true }).click();
    const region = page.getByRole('region', { name: 'Notifications' });
    const err = region.locator('.toast--error .toast__message');
    await err.waitFor();
    const text = (await err.textContent()).trim();
    assert.ok(text.startsWith('Your Free plan allows 1 canary.'), `error toast: ${JSON.stringify(text)}`);
    // Toasts sit at the top right, just below the header, so Upgrade and Logout stay clear.
    const [toastBox, headerBox] = [await err.boundingBox(), await page.getByRole('banner').boundingBox()];
    const width = page.viewportSize().width;
    // (Boxes are in viewport coordinates; the header may have scrolled away, the fixed toaster does not.)
    assert.ok(toastBox.y >= headerBox.height && toastBox.y < headerBox.height + 120, `top, below the header: ${JSON.stringify({ toastBox, headerBox })}`);
    assert.ok(toastBox.x + toastBox.width > width - 80, `right: ${JSON.stringify(toastBox)} of ${width}`);
    assert.equal(await region.locator('.toast--success').count(), 0, 'no success toast');
    assert.equal(calls(requests, 'canary.create').length, 1);
    const items = (await api('GET', '/api/canary/list', { token: acct.token })).json;
    assert.deepEqual(
      items.map((c) => c.name),
      ['First'],
    );
    await screenshot(page, 'canary-plan-limit');
    // The 403 itself is logged by Chrome ("Failed to load resource"); nothing else may be.
    const other = errors.filter((e) => !/status of 403/.test(e.text));
    assert.deepEqual(other, [], 'no console errors besides the 403');
  } finally {
    await context.close();
  }
});

test('canary pages: axe: /app and /app/canary-status with a canary, and the open delete dialog, have no serious or critical violations', async () => {
  const { page, context } = await setup({ path: '/app', canary: { interval_seconds: 86_400, name: 'Axe canary' } });
  const scan = (label) => assertNoSeriousAxeViolations(page, label);
  try {
    await page.getByRole('meter', { name: 'Time left before the deadline', exact: true }).waitFor();
    await card(page, 'Recent Activity').locator('.activity-list').waitFor();
    await scan('/app');
    await page.goto('/app/canary-status');
    await page.getByRole('heading', { level: 3, name: 'Axe canary', exact: true }).waitFor();
    await page.getByText("Dead-man's switch:").waitFor();
    await scan('/app/canary-status');
    await page.getByRole('button', { name: 'Delete canary Axe canary', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete this canary?', exact: true }).waitFor();
    await page.waitForTimeout(300);
    await scan('/app/canary-status delete dialog');
  } finally {
    await context.close();
  }
});
