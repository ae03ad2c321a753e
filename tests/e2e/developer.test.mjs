// Developer and Help pages: an API key created in the browser is shown once
// (a reload leaves only its prefix), works from Node within its scope (200), is refused outside it (403)
// and, once revoked in the browser, at once (401). A webhook pointed at a loopback receiver gets a signed
// test event that the published `standardwebhooks` package verifies, and the attempt shows in the log.
// Axe scans of both pages.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { sharedBrowser, screenshot } from '../support/browser.mjs';
import { api, origin } from '../support/http.mjs';
import { assertNoSeriousAxeViolations, card, eventually, h1, toast, unexpectedConsoleErrors } from '../support/page.mjs';
import { accountWithToken, newAccountPage } from '../support/session.mjs';

const getBrowser = sharedBrowser({ after });

const KEY_PANEL = 'Your new API key';
const SECRET_PANEL = 'Your webhook signing secret';

/** GET with an API key, as an integrator's script would. */
const withKey = (path, key) => fetch(new URL(path, origin()), { headers: { authorization: `Bearer ${key}` } });

test('developer: create a key, see it once, use it from Node within and outside its scope, revoke it', async () => {
  const { page, context, errors } = await newAccountPage(await getBrowser(), '/app/developer', { permissions: ['clipboard-read', 'clipboard-write'] });
  try {
    await h1(page, 'Developer').waitFor();
    const keys = card(page, 'API keys');
    await keys.getByText('No API keys yet.').waitFor();

    // Nothing is sent without a scope; the form says why.
    await keys.getByLabel('Name').fill('E2E script');
    await keys.getByRole('button', { name: 'Create key', exact: true }).click();
    await keys.getByText('Choose at least one scope.').waitFor();

    await keys.getByLabel('read:canary', { exact: true }).check();
    await keys.getByLabel(/^Sandbox key/).check();
    await keys.getByRole('button', { name: 'Create key', exact: true }).click();

    // Shown once: the whole key, a warning and a copy button.
    const panel = page.getByRole('region', { name: KEY_PANEL });
    await panel.waitFor();
    await panel.getByText('It will not be shown again', { exact: false }).waitFor();
    const key = (await panel.getByLabel('API key for E2E script').textContent()).trim();
    assert.match(key, /^afw_test_[0-9A-Za-z]+$/, 'a sandbox key');
    await panel.getByRole('button', { name: 'Copy key' }).click();
    await toast(page, 'API key copied').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key, 'the copy button copies the key');
    await screenshot(page, 'developer-key-once');
    await assertNoSeriousAxeViolations(page, '/app/developer with the new key shown');

    // The list already has the key, by prefix only.
    const item = keys.getByRole('listitem').filter({ hasText: 'E2E script' });
    await item.waitFor();
    assert.equal(await item.getByText(key, { exact: false }).count(), 0, 'the list never shows the key');

    // A reload forgets it: only the prefix is left, and nothing was stored in the browser.
    await page.reload();
    await h1(page, 'Developer').waitFor();
    await item.waitFor();
    assert.equal(await page.getByRole('region', { name: KEY_PANEL }).count(), 0, 'the panel is gone');
    assert.ok(!(await page.content()).includes(key), 'the key is nowhere in the page');
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    assert.ok(!stored.includes(key), 'the key is not kept in browser storage');
    const prefixText = (await item.locator('dd code').first().textContent()).trim();
    assert.ok(prefixText.endsWith('…'), `prefix shown as a start: ${prefixText}`);
    assert.ok(key.startsWith(prefixText.slice(0, -1)), 'the prefix is the key’s start');
    assert.ok(prefixText.length - 1 < key.length - 8, 'the prefix is much shorter than the key');
    await item.getByText('Sandbox', { exact: true }).waitFor();
    await item.getByText('read:canary', { exact: true }).waitFor();
    await item.getByText('Never', { exact: true }).waitFor();

    // From Node: within its scope 200, outside it 403 with the scope named.
    const ok = await withKey('/api/canary/status', key);
    assert.equal(ok.status, 200, await ok.clone().text());
    const out = await withKey('/api/message/pending', key);
    assert.equal(out.status, 403, 'read:messages is not granted');
    assert.match(JSON.stringify(await out.json()), /read:messages/, 'the detail names the missing scope');

    // The page counts the call.
    await page.reload();
    await item.waitFor();
    await eventually(async () => !(await item.getByText('Never', { exact: true }).count()), 'last used is set');

    // Revoke in the browser: the same call is refused at once.
    await item.getByRole('button', { name: 'Revoke key E2E script' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this API key?' });
    await dialog.waitFor();
    await assertNoSeriousAxeViolations(page, '/app/developer with the revoke dialog open');
    await dialog.getByRole('button', { name: 'Revoke key', exact: true }).click();
    await toast(page, 'API key revoked').waitFor();
    await keys.getByText('No API keys yet.').waitFor();
    const revoked = await withKey('/api/canary/status', key);
    assert.equal(revoked.status, 401, 'a revoked key is refused at once');

    assert.deepEqual(unexpectedConsoleErrors(errors), [], 'no console errors');
  } finally {
    await context.close();
  }
});

/** A loopback webhook consumer that records every request and answers 200. */
async function startReceiver() {
  const received = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise((res) => server.listen(0, '127.0.0.1', res));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/hooks/afterword`, received, stop: () => new Promise((res) => server.close(res)) };
}

test('developer: a webhook to a loopback receiver gets a signed test event, logged on the page', async (t) => {
  const probe = await accountWithToken();
  const listed = await api('GET', '/api/developer/webhooks', { token: probe.token });
  if (listed.status === 404) return t.skip('webhooks have not landed in this build');

  const receiver = await startReceiver();
  const { page, context, errors } = await newAccountPage(await getBrowser(), '/app/developer');
  try {
    await h1(page, 'Developer').waitFor();
    const hooks = card(page, 'Webhooks');
    await hooks.getByText('No webhooks yet.').waitFor();

    // The sample payload has the shape of docs/product.md "Developer API and webhooks".
    const sample = JSON.parse(await page.getByLabel('Sample missed_checkins payload').textContent());
    assert.equal(sample.type, 'missed_checkins');
    for (const field of ['user_id', 'event', 'misses']) assert.ok(field in sample.data, `sample has ${field}`);

    await hooks.getByLabel('Endpoint URL').fill(receiver.url);
    assert.equal(await hooks.getByLabel('Event').inputValue(), 'missed_checkins');
    await hooks.getByRole('button', { name: 'Create webhook', exact: true }).click();

    const panel = page.getByRole('region', { name: SECRET_PANEL });
    await panel.waitFor();
    await panel.getByText('It will not be shown again', { exact: false }).waitFor();
    const secret = (await panel.getByLabel(`Signing secret for ${receiver.url}`).textContent()).trim();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
    await panel.getByRole('button', { name: 'I have saved it' }).click();
    assert.equal(await panel.count(), 0, 'the secret is gone once saved');

    const item = hooks.getByRole('listitem').filter({ hasText: receiver.url });
    await item.getByText('Active', { exact: true }).waitFor();
    assert.ok(!(await item.textContent()).includes(secret), 'the list masks the secret');

    await item.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
    const hit = await eventually(() => receiver.received.find((r) => r.method === 'POST'), 'the receiver got the test event');
    assert.equal(hit.url, '/hooks/afterword');
    const event = new Webhook(secret).verify(hit.body, hit.headers);
    assert.equal(event.type, 'missed_checkins');
    assert.equal(event.data.event, 'missed_checkins');
    assert.throws(() => new Webhook(secret).verify(hit.body.replace('missed_checkins', 'missed_checkinz'), hit.headers), 'a changed body fails');

    // The attempt is in the log: its webhook-id, attempt 1, a 200.
    const log = item.getByRole('table', { name: new RegExp(`Delivery attempts to ${receiver.url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`) });
    const row = log.getByRole('row').filter({ hasText: hit.headers['webhook-id'] });
    await row.waitFor({ timeout: 15_000 });
    const cells = (await row.getByRole('cell').allTextContents()).map((c) => c.trim());
    assert.deepEqual(cells.slice(1, 4), [hit.headers['webhook-id'], '1', '200 delivered']);
    assert.equal(cells.at(-1), 'Test event');
    await screenshot(page, 'developer-webhook-attempt');
    await assertNoSeriousAxeViolations(page, '/app/developer with a webhook and its attempts');

    // Delete, behind a confirm.
    await item.getByRole('button', { name: `Delete webhook ${receiver.url}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await dialog.getByRole('button', { name: 'Delete webhook', exact: true }).click();
    await toast(page, 'Webhook deleted').waitFor();
    await hooks.getByText('No webhooks yet.').waitFor();

    assert.deepEqual(unexpectedConsoleErrors(errors), [], 'no console errors');
  } finally {
    await context.close();
    await receiver.stop();
  }
});

test('developer: a sandbox key simulates its canary’s miss; the signed event (sandbox: true) reaches a loopback receiver through the real queue', async () => {
  const receiver = await startReceiver();
  try {
    const acct = await accountWithToken();
    const hook = await api('POST', '/api/developer/webhooks', { token: acct.token, body: { url: receiver.url, event: 'missed_checkins', retry: true } });
    assert.equal(hook.status, 201);
    const canary = await api('POST', '/api/canary/create', { token: acct.token, body: { interval_seconds: 3600 } });
    assert.equal(canary.status, 201);
    const created = await api('POST', '/api/developer/keys', { token: acct.token, body: { name: 'receiver tests', scopes: ['read:canary'], sandbox: true } });
    assert.equal(created.status, 201);

    // As an integrator would: curl -X POST -H "Authorization: Bearer afw_test_…" …/api/sandbox/missed-checkins
    const res = await fetch(new URL('/api/sandbox/missed-checkins', origin()), { method: 'POST', headers: { authorization: `Bearer ${created.json.key}` } });
    assert.equal(res.status, 202);
    const sent = await res.json();
    assert.equal(sent.canary_id, canary.json.id);
    assert.equal(sent.deliveries, 1);

    const hit = await eventually(() => receiver.received.find((r) => r.method === 'POST'), 'the receiver got the simulated event');
    const event = new Webhook(hook.json.hmac_secret).verify(hit.body, hit.headers);
    assert.deepEqual(event.data, {
      user_id: acct.user.id,
      event: 'missed_checkins',
      canary_id: canary.json.id,
      misses: 1,
      deadline: canary.json.deadline,
      sandbox: true,
    });

    // The canary itself was not touched.
    const status = await api('GET', '/api/canary/status', { token: acct.token });
    assert.equal(status.json.missed, false);
    assert.equal(status.json.misses, 0);
  } finally {
    await receiver.stop();
  }
});

test('developer: the API reference links, the plan quota, and the Help page (curl, webhook verification, video)', async () => {
  const { page, context, errors } = await newAccountPage(await getBrowser(), '/app/developer');
  try {
    const ref = card(page, 'API reference');
    assert.equal(await ref.getByRole('link', { name: 'open the interactive API reference' }).getAttribute('href'), '/api/docs');
    assert.equal(await ref.getByRole('link', { name: 'OpenAPI document (JSON)' }).getAttribute('href'), '/api/openapi.json');
    await ref.getByText('Your plan, Free, includes 100 API calls a month', { exact: false }).waitFor();
    await assertNoSeriousAxeViolations(page, '/app/developer (empty)');

    await page.goto('/app/help');
    await h1(page, 'Help').waitFor();
    const tips = card(page, 'Developer tips');
    await tips.getByText(`curl -H "Authorization: Bearer afw_test_…" ${origin()}/api/canary/status`, { exact: true }).waitFor();
    await tips.getByText(`curl -X POST ${origin()}/api/ping/<token>`, { exact: true }).waitFor();
    const verify = await tips.getByLabel('Webhook receiver in Node').textContent();
    assert.match(verify, /import \{ Webhook \} from 'standardwebhooks'/);
    assert.match(verify, /new Webhook\(.*\)/);
    assert.match(verify, /\.verify\(body, req\.headers\)/);
    for (const topic of ['Check-ins', 'Canaries', 'Messages and rules', 'Your recipients’ inbox', 'Encryption and the recovery key']) {
      await card(page, 'Getting started').getByRole('heading', { level: 3, name: topic, exact: true }).waitFor();
    }
    // Every page of the navigation has its line, with a link to it.
    const guide = card(page, 'Every page');
    for (const [name, href] of [
      ['Dashboard', '/app'],
      ['Vault', '/app/vault'],
      ['Guardians', '/app/guardian'],
      ['Developer', '/app/developer'],
    ]) {
      assert.equal(await guide.getByRole('link', { name, exact: true }).getAttribute('href'), href);
    }
    await guide.getByText('Files kept encrypted for a person and released on your death', { exact: false }).waitFor();
    const video = card(page, 'Video').locator('video');
    assert.equal(await video.getAttribute('src'), '/press/afterword-explainer.webm');
    assert.equal(await video.locator('track[kind="captions"]').getAttribute('src'), '/press/afterword-explainer.vtt');
    const captions = await fetch(new URL('/press/afterword-explainer.vtt', origin()));
    assert.equal(captions.status, 200, 'the captions are served');
    await assertNoSeriousAxeViolations(page, '/app/help');
    await screenshot(page, 'help');

    // Narrow screens (from 360 px): the same pages, scanned again.
    await page.setViewportSize({ width: 375, height: 800 });
    await assertNoSeriousAxeViolations(page, '/app/help at 375px');
    await page.goto('/app/developer');
    await card(page, 'Sample payload').getByLabel('Sample missed_checkins payload').waitFor();
    await assertNoSeriousAxeViolations(page, '/app/developer at 375px');
    await screenshot(page, 'developer-375');
    assert.deepEqual(unexpectedConsoleErrors(errors), [], 'no console errors');
  } finally {
    await context.close();
  }
});
