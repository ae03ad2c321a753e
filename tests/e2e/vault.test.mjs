// The vault and the guardian ladder in three browsers: the owner stores an
// encrypted file for the recipient to be released on the death flag and names a guardian; the guardian
// accepts by the emailed link and, once the owner has missed a check-in, reports the death; the owner sees
// the veto banner; the window passes unrefuted, the death is confirmed and the recipient opens the file in
// their Inbox — the very bytes. The QR code decodes (jsQR) to the claim link; no request, D1 row or
// stored byte carries the file's content.
//
// Time: a veto window is at least 24 hours. The worker tests move an injected clock through every step;
// here the running Worker has the real clock, so the journey moves the *records* instead: the owner's last
// check-in back by a day (a missed check-in) and the open report's window into the past with its halfway
// reminder told, then runs the every-minute cron (`/cdn-cgi/handler/scheduled` of `wrangler dev`), which finishes what is
// due exactly as it would after the real wait. Nothing waits on the clock: each step waits for what it
// needs to see.
//
// It reads the stage Worker's local state directory (D1, R2 and Durable Object files) as an attacker with the disk would.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import jsQR from 'jsqr';
import { launchBrowser, screenshot } from '../support/browser.mjs';
import { d1, d1Batch, filesContaining, readTree } from '../support/d1.mjs';
import { assertNoSeriousAxeViolations, card, dismissRecoveryKey, eventually, h1, toast } from '../support/page.mjs';
import { recordedContext as recorded, uiLogin } from '../support/recorded-context.mjs';
import { stageWorker } from '../support/stage-worker.mjs';
import { api as call, PASSWORD, register, uniqueEmail } from '../support/http.mjs';

const STEP_TIMEOUT = 60_000;
const SETUP_TIMEOUT = 240_000;

let browserStarting;
after(async () => {
  if (browserStarting) await (await browserStarting).close().catch(() => {});
});
const getWorker = async () => stageWorker();
const getBrowser = () => (browserStarting ??= launchBrowser());

/** A new account (it signs in through the form later) and the display name the journey gives it in D1. */
const person = async (tag, name) => ({ ...(await register({ email: uniqueEmail(tag) })), name });

async function recordedContext() {
  return recorded(await getBrowser(), (await getWorker()).origin, { timeout: STEP_TIMEOUT });
}

const storedToken = (page) => page.evaluate(() => localStorage.getItem('token'));

function needs(value, what) {
  assert.ok(value, `needs ${what} (an earlier step failed)`);
  return value;
}

/** Polls `check` until it is truthy, for up to `seconds` (a cron run, a queue job and a Durable Object in a row). */
async function within(seconds, check, label) {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const value = await check();
    if (value) return value;
    await new Promise((res) => setTimeout(res, 500));
  }
  assert.fail(`never happened within ${seconds} s: ${label}`);
}

/** Where `needle` shows up in the recorded requests (URL, headers, body). */
function leaks(requests, needle) {
  return requests
    .filter((r) => [Buffer.from(r.url), Buffer.from(JSON.stringify(r.headers)), r.body ?? Buffer.alloc(0)].some((p) => p.includes(needle)))
    .map((r) => `${r.method} ${r.url}`);
}

describe('the vault and the guardian ladder: from a stored file to the recipient’s Inbox', () => {
  const FILE_MARKER = `VAULT-MARKER-${randomUUID()}`;
  const FILE_NAME = 'for-rita.txt';
  const fileBytes = Buffer.from(`Dear Rita,\n${FILE_MARKER}\nThe garden is yours.\n`, 'utf8');
  const j = {};

  before(
    async () => {
      j.worker = await getWorker();
      j.owner = await person('owner', 'Ada Owner');
      j.recipient = await person('recipient', 'Rita Recipient');
      j.guardian = await person('guardian', 'Sam Guardian');
      await d1Batch(
        j.worker.persistDir,
        [j.owner, j.recipient, j.guardian].map((p) => `UPDATE users SET display_name = '${p.name}' WHERE id = '${p.user.id}'`),
      );
      j.o = await recordedContext();
      j.r = await recordedContext();
      j.g = await recordedContext();
    },
    { timeout: SETUP_TIMEOUT },
  );
  after(async () => {
    for (const c of [j.o, j.r, j.g]) await c?.context.close();
  });

  test('each person signs in; the owner’s and the recipient’s browsers make their keys', async () => {
    await uiLogin(j.r.page, j.recipient.email, PASSWORD);
    await dismissRecoveryKey(j.r.page);
    await uiLogin(j.o.page, j.owner.email, PASSWORD);
    await dismissRecoveryKey(j.o.page);
    await uiLogin(j.g.page, j.guardian.email, PASSWORD);
    await dismissRecoveryKey(j.g.page);
    j.ownerToken = await storedToken(j.o.page);
    j.signedIn = true;
  });

  test('the owner stores a file in the vault for the recipient, encrypted in the browser, released on the death flag', async () => {
    const { page } = j.o;
    needs(j.signedIn, 'the sign-ins');
    await page.goto('/app/vault');
    await h1(page, 'Vault').waitFor();
    const form = page.getByRole('form', { name: 'Store a file in the vault' });
    await form.getByLabel(/^File/).setInputFiles({ name: FILE_NAME, mimeType: 'text/plain', buffer: fileBytes });
    await form.getByLabel('Recipient User ID').fill(j.recipient.user.id);
    await form.getByLabel('Condition').selectOption('death_flag');
    await form.getByLabel('Legal note (optional)').fill('Witnessed by nobody; a private letter.');
    await form.getByLabel('I have the right to store this file and to give it to this person').check();
    await form.getByRole('button', { name: 'Save to vault', exact: true }).click();
    await toast(page, 'Saved in your vault').waitFor();
    const item = page.getByRole('listitem', { name: FILE_NAME });
    await item.getByText('When my death is confirmed').waitFor();
    j.item = (await call('GET', '/api/vault/list', { token: j.ownerToken })).json[0];
    assert.equal(j.item.name, FILE_NAME);
    assert.equal(j.item.status, 'scheduled');
    await assertNoSeriousAxeViolations(page, '/app/vault with an item', { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
    await screenshot(page, 'vault-item-stored');
  });

  test('the QR code on the page decodes to the recipient’s claim link', async () => {
    const { page } = j.o;
    const item = needs(j.item, 'the stored item');
    const img = page.getByRole('img', { name: `QR code of the claim link for ${FILE_NAME}` });
    await img.waitFor();
    // The browser draws the SVG it was served; jsQR reads the pixels.
    const { width, height, data } = await img.evaluate(async (el) => {
      if (!el.complete) await new Promise((res) => el.addEventListener('load', res, { once: true }));
      const size = 400;
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = size;
      const g = canvas.getContext('2d');
      g.fillStyle = 'white';
      g.fillRect(0, 0, size, size);
      g.drawImage(el, 0, 0, size, size);
      return { width: size, height: size, data: Array.from(g.getImageData(0, 0, size, size).data) };
    });
    const decoded = jsQR(Uint8ClampedArray.from(data), width, height);
    assert.equal(decoded?.data, item.claim_url);
  });

  test('a visitor of the claim link learns only that something waits; signed in as the recipient, from whom', async () => {
    const item = needs(j.item, 'the stored item');
    const path = new URL(item.claim_url).pathname;
    const anonymous = await (await getBrowser()).newContext({ baseURL: j.worker.origin });
    try {
      const visitor = await anonymous.newPage();
      await visitor.goto(path);
      await visitor.getByText('Something will be left for you here. It is not available yet.').waitFor();
      assert.equal(await visitor.getByText(FILE_NAME).count(), 0, 'the file name is not shown');
      assert.equal(await visitor.getByText('Ada Owner').count(), 0, 'nor who left it');
    } finally {
      await anonymous.close();
    }
    await j.r.page.goto(path);
    await j.r.page.getByText(/^Ada Owner has left something for you\./).waitFor();
  });

  test('the owner assigns a guardian, who accepts by the emailed link', async () => {
    const { page } = j.o;
    needs(j.signedIn, 'the sign-ins');
    await page.goto('/app/guardian');
    await h1(page, 'Guardian').waitFor();
    const form = page.getByRole('form', { name: 'Assign a guardian' });
    await form.getByLabel('Email').fill(j.guardian.email);
    await form.getByLabel('This person agreed to be asked about me').check();
    await form.getByRole('button').click();
    await page.getByText('Guardian assigned').first().waitFor();
    const [mail] = await d1(
      j.worker.persistDir,
      `SELECT text FROM outbox_messages WHERE address = '${j.guardian.email}' AND subject LIKE '%asks you to be their guardian%' ORDER BY created_at DESC LIMIT 1`,
    );
    const link = /https?:\/\/[^\s]+\/guardian\/accept\/[A-Za-z0-9_-]+/.exec(needs(mail, 'the invitation email').text)[0];
    await j.g.page.goto(new URL(link).pathname);
    await j.g.page.getByRole('button', { name: 'Accept', exact: true }).click();
    await j.g.page.getByText('You are now a guardian for Ada Owner.').waitFor();
    j.accepted = true;
  });

  test('after the owner misses a check-in, the guardian reports the death on their page', async () => {
    needs(j.accepted, 'the accepted invitation');
    const created = await call('POST', '/api/canary/create', { token: j.ownerToken, body: { interval_seconds: 3600, name: 'daily' } });
    assert.ok(created.status === 200 || created.status === 201, `canary: ${created.buf}`);
    // A day without a check-in (see the top of this file).
    await d1(j.worker.persistDir, `UPDATE canaries SET last_check_in = last_check_in - 86400000 WHERE user_id = '${j.owner.user.id}'`);
    const { page } = j.g;
    await page.goto('/app/guardian');
    const person = card(page, 'People who chose you');
    await person.getByText('Ada Owner').first().waitFor();
    const report = person.getByRole('button', { name: 'Report death', exact: true });
    await eventually(async () => {
      await page.reload();
      return !(await report.isDisabled());
    }, 'the report button is enabled once the miss shows');
    await report.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Report death', exact: true }).click();
    await eventually(async () => (await call('GET', '/api/guardian/ladder', { token: j.ownerToken })).json?.stage === 'veto_window', 'the veto window opens');
    j.reported = true;
  });

  test('the owner sees the veto banner on the dashboard', async () => {
    needs(j.reported, 'the report');
    const { page } = j.o;
    await page.goto('/app');
    const banner = page.getByRole('alert').filter({ hasText: /refute/i });
    await banner.waitFor();
    assert.match(await banner.textContent(), /1 vault item to 1 person/);
    await screenshot(page, 'vault-veto-banner');
  });

  test('the window passes unrefuted: the death is confirmed and the vault item released', async () => {
    needs(j.reported, 'the report');
    const now = Date.now();
    await d1Batch(j.worker.persistDir, [
      `UPDATE death_reports SET halfway_at = ${now - 7_200_000}, halfway_sent_at = ${now - 7_200_000}, window_ends_at = ${now - 60_000}, timer_due_at = NULL WHERE owner_id = '${j.owner.user.id}' AND status = 'open'`,
    ]);
    await within(
      90,
      async () => {
        await fetch(new URL('/cdn-cgi/handler/scheduled?cron=*+*+*+*+*', j.worker.origin));
        const item = (await call('GET', `/api/vault/${j.item.id}`, { token: j.ownerToken })).json;
        return item && item.status !== 'scheduled' && item.released_at;
      },
      'the vault item is released',
    );
    const ladder = (await call('GET', '/api/guardian/ladder', { token: j.ownerToken })).json;
    assert.equal(ladder.stage, 'confirmed');
    j.released = true;
  });

  test('the recipient opens the file in their Inbox: the browser decrypts the very bytes', async () => {
    needs(j.released, 'the release');
    const { page } = j.r;
    await page.goto('/app/inbox');
    const item = page.locator('.message-item', { hasText: j.owner.email });
    await item.getByRole('link', { name: /^Open/ }).click();
    await page.waitForURL(`**/app/inbox/${j.item.message_id}`);
    // The page load forgot the key: the password unlocks it again, in this browser.
    const prompt = page.getByRole('form', { name: 'Unlock encrypted messages' });
    const downloadButton = page.getByRole('button', { name: `Download ${FILE_NAME}` });
    await prompt.or(downloadButton).first().waitFor();
    // The prompt may render again while the message loads (a fill can land in the first copy): retry.
    await eventually(async () => {
      if (await downloadButton.isVisible()) return true;
      if (await prompt.isVisible()) {
        await prompt.getByLabel('Password').fill(PASSWORD);
        await prompt.getByRole('button', { name: 'Unlock' }).click();
        await downloadButton.waitFor({ timeout: 5_000 }).catch(() => {});
      }
      return downloadButton.isVisible();
    }, 'the file is offered once the keys are unlocked');
    const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
    assert.equal(download.suggestedFilename(), FILE_NAME);
    assert.deepEqual(readFileSync(await download.path()), fileBytes, 'the recipient gets the exact bytes');
    j.opened = true;
    await screenshot(page, 'vault-recipient-opened');
  });

  test('no request, no D1 row and no stored byte carried the file’s content', async () => {
    needs(j.opened, 'the journey');
    const requests = [...(await j.o.requests()), ...(await j.r.requests()), ...(await j.g.requests())];
    assert.ok(
      requests.some((r) => r.url.endsWith('/api/vault/create')),
      'the upload was recorded',
    );
    assert.deepEqual(leaks(requests, Buffer.from(FILE_MARKER)), [], 'no request carried the marker');
    const tree = readTree(j.worker.persistDir);
    assert.ok(filesContaining(tree, Buffer.from(j.owner.email)).length > 0, 'the raw scan sees D1 text');
    assert.deepEqual(filesContaining(tree, Buffer.from(FILE_MARKER)), [], 'no stored byte holds the marker');
  });
});
