// The export read by a person, from disk (docs/decisions/data-export.md "Readable pages"): the owner downloads
// their archive, unzips it, and opens index.html and open-encrypted-files.html from file:// in Chromium, with no
// server behind them. The owner's end-to-end encrypted message to the recipient, and its attached file, open on
// the offline page with the owner's recovery key and, separately, with their password; an outsider's recovery
// key opens nothing. Keys and the message are made as a browser would make them, by Node's independent
// implementation of the formats (tests/support/e2ee-node.mjs), so the page (built from web/src/crypto/) opens
// what another implementation sealed.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { unzipSync } from 'fflate';
import { newContext, screenshot, sharedBrowser } from '../support/browser.mjs';
import * as node from '../support/e2ee-node.mjs';
import { api, PASSWORD, url } from '../support/http.mjs';
import { accountWithToken } from '../support/session.mjs';

const getBrowser = sharedBrowser({ after });
/** PBKDF2 at 600,000 iterations in a busy two-core machine's Chromium takes seconds. */
const OPENING = 60_000;

/** An account with a key bundle made as its browser would make it: the account, its recovery key. */
async function personWithKeys() {
  const person = await accountWithToken();
  const pair = await node.generateKeyPair();
  const recovery = await node.generateRecoveryKey();
  const bundle = {
    public_key: pair.publicJwk,
    password_wrap: await node.wrapPrivateKey(pair.privateKey, { password: PASSWORD }),
    recovery_wrap: await node.wrapPrivateKey(pair.privateKey, { recoveryKey: recovery.text }),
  };
  const put = await api('PUT', '/api/keys/me', { token: person.token, body: bundle });
  assert.equal(put.status, 201, put.text);
  return { ...person, id: person.user.id, publicKey: pair.publicJwk, recoveryKey: recovery.text };
}

/** The owner seals a text and a file for the recipient and themselves, and stores both (released later). */
async function sealedMessageWithFile(owner, recipient, { text, fileName, fileBytes }) {
  const file = await node.encryptFile(fileBytes);
  const { envelope } = await node.sealEnvelope({
    payload: { text, attachments: [{ iv: file.ivText, key: file.keyText, name: fileName, type: 'application/octet-stream', size: fileBytes.length }] },
    readers: [
      { kid: recipient.id, publicKey: recipient.publicKey },
      { kid: owner.id, publicKey: owner.publicKey },
    ],
  });
  const created = await api('POST', '/api/message/create', {
    token: owner.token,
    body: {
      recipient_user_id: recipient.id,
      content: '',
      content_encrypted: JSON.stringify(envelope),
      use_e2ee: true,
      delivery_method: 'email',
      rules: [{ trigger_type: 'missed_checkins', trigger_value: 3 }],
      consent: true,
      deliver_at: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  assert.equal(created.status, 201, created.text);
  const form = new FormData();
  form.append('file', new Blob([file.ciphertext]), 'sealed.bin');
  form.append('message_id', created.json.id);
  form.append('iv', file.ivBase64);
  form.append('name', fileName);
  const up = await fetch(url('/api/upload/encrypted-file'), { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: form });
  assert.equal(up.status, 201, await up.text());
  return created.json.id;
}

/** GET /api/legal/export, unzipped into a fresh folder as a person would: the folder. */
async function downloadAndUnzip(owner) {
  const res = await fetch(url('/api/legal/export'), { headers: { authorization: `Bearer ${owner.token}` } });
  assert.equal(res.status, 200);
  const dir = mkdtempSync(join(tmpdir(), 'afterword-export-'));
  for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(await res.arrayBuffer())))) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), bytes);
  }
  return dir;
}

describe('export: the owner reads their archive from disk and opens what is encrypted, offline', () => {
  const TEXT = `Dear friend, the keys are in the blue box. ${randomUUID()}`;
  const FILE_NAME = 'house-deeds.bin';
  const FILE_BYTES = randomBytes(3000);
  const s = {};

  before(async () => {
    s.owner = await personWithKeys();
    s.recipient = await personWithKeys();
    s.outsider = await personWithKeys();
    s.messageId = await sealedMessageWithFile(s.owner, s.recipient, { text: TEXT, fileName: FILE_NAME, fileBytes: FILE_BYTES });
    s.dir = await downloadAndUnzip(s.owner);
    const { context, errors } = await newContext(await getBrowser(), { acceptDownloads: true, baseURL: undefined });
    s.requests = [];
    context.on('request', (r) => {
      if (!/^(file|blob|data):/.test(r.url())) s.requests.push(r.url());
    });
    Object.assign(s, { context, errors, page: await context.newPage() });
  });
  after(async () => {
    await s.context?.close();
    if (s.dir) rmSync(s.dir, { recursive: true, force: true });
  });

  /** The opener page from disk, the folder chosen and `secret` typed; resolves once it answered. */
  async function openWith(secret) {
    const { page } = s;
    await page.goto(pathToFileURL(join(s.dir, 'open-encrypted-files.html')).href);
    await page.getByLabel(/The unzipped export folder/).setInputFiles(s.dir);
    if (secret.recoveryKey) await page.getByLabel('Recovery key').fill(secret.recoveryKey);
    if (secret.password) await page.getByLabel('Or your password').fill(secret.password);
    await page.getByRole('button', { name: 'Open' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Opened|Could not open/ })
      .waitFor({ timeout: OPENING });
    return (await page.getByRole('status').textContent()).trim();
  }

  async function savedFile() {
    const [download] = await Promise.all([s.page.waitForEvent('download'), s.page.getByRole('link', { name: `Save ${FILE_NAME}` }).click()]);
    assert.equal(download.suggestedFilename(), FILE_NAME);
    return readFileSync(await download.path());
  }

  test('index.html opened from disk shows the owner’s account and their message to the recipient as encrypted, with a link to open it', async () => {
    const { page } = s;
    await page.goto(pathToFileURL(join(s.dir, 'index.html')).href);
    await page.getByRole('heading', { level: 1, name: 'Your Afterword export' }).waitFor();
    await page.getByText(s.owner.email).first().waitFor();
    await page.getByRole('heading', { level: 2, name: 'Files' }).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Messages' }).click();
    const message = page.locator(`#message-${s.messageId}`);
    await message
      .getByRole('heading', { name: `To ${s.recipient.email}` })
      .or(message.getByRole('heading', { name: `To account ${s.recipient.id}` }))
      .waitFor();
    assert.match(await message.textContent(), /after 3 missed check-ins/);
    assert.match(await message.textContent(), /End-to-end encrypted: its text is sealed/);
    const fileLink = await message.getByRole('link', { name: FILE_NAME }).getAttribute('href');
    assert.match(fileLink, new RegExp(`^files/attachments/${s.messageId}/[0-9a-f-]{36}-${FILE_NAME.replace('.', '\\.')}\\.enc$`), 'the sealed file is linked');
    assert.ok(!(await page.content()).includes(TEXT), 'the page cannot show what it cannot read');
    await screenshot(page, 'export-messages-page');
    await message.getByRole('link', { name: 'Open it', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Open your encrypted files' }).waitFor();
  });

  test('the owner’s recovery key opens the message text and the file, byte for byte', async () => {
    assert.match(await openWith({ recoveryKey: s.owner.recoveryKey }), /^Opened/);
    await s.page.getByText(TEXT).waitFor();
    assert.deepEqual(await savedFile(), FILE_BYTES);
    await screenshot(s.page, 'export-opener-opened');
  });

  test('the owner’s password opens the same', async () => {
    assert.match(await openWith({ password: PASSWORD }), /^Opened/);
    await s.page.getByText(TEXT).waitFor();
    assert.deepEqual(await savedFile(), FILE_BYTES);
  });

  test('an outsider’s recovery key opens nothing, and the page says so', async () => {
    assert.equal(await openWith({ recoveryKey: s.outsider.recoveryKey }), 'Could not open: wrong recovery key.');
    assert.equal(await s.page.getByText(TEXT).count(), 0);
  });

  test('the pages and the opener asked nothing of any server and broke no rule of their CSP', () => {
    assert.deepEqual(s.requests, []);
    assert.deepEqual(s.errors, []);
  });
});
