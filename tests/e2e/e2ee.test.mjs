// End-to-end encryption in the browser (docs/server-rules.md "End-to-end encryption", docs/security/e2ee.md),
// with two browser contexts (sender and recipient):
//  (a) zero knowledge: every request both contexts make is recorded (URL, headers, body); the sender
//      writes an E2EE message with a recording and an attached file, each carrying a unique marker.
//      No request, no D1 row and no stored byte (D1's SQLite files, R2's blobs) contains a marker, a
//      private key, a recovery key or the file key; the recipient's browser opens all of it.
//  (b) interop: Node (tests/support/e2ee-node.mjs, an independent implementation) opens what the
//      browser sealed, and the browser opens what Node sealed.
//  (c) recovery: a password change keeps access; a reset with the recovery key restores it; a reset
//      without it gives new keys, and the old message then says it is encrypted for another key.
// It reads the stage Worker's local state directory (D1, R2 and Durable Object files) as an attacker with the disk would.
//
// Each journey is a suite of steps that read as sentences and run in order, sharing the journey's state
// (a step that needs an earlier one's result says so when that one failed). Starting the Worker and
// Chromium is setup (`before`), outside every test's time limit. Nothing waits on the clock: each step
// waits for what it needs to see, with generous limits, because on a busy two-core machine PBKDF2 in
// the browser, axe and every `wrangler` process take several times longer than on an idle one.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, screenshot } from '../support/browser.mjs';
import { d1Batch, filesContaining, readTree } from '../support/d1.mjs';
import * as node from '../support/e2ee-node.mjs';
import { assertNoSeriousAxeViolations, card, eventually, h1, toast } from '../support/page.mjs';
import { recordedContext as recorded, uiLogin } from '../support/recorded-context.mjs';
import { stageWorker } from '../support/stage-worker.mjs';
import { api as call, login, PASSWORD, register, uniqueEmail } from '../support/http.mjs';

const E2EE_WARNING = 'Warning: This will send an unreadable encrypted message to the recipient who can only decrypt it if they hold the required private key.';
/** The longest any one wait in a step may take (Playwright's default is 30 s). */
const STEP_TIMEOUT = 60_000;
/** Starting Chromium (and, before the stage Worker, wrangler dev): setup, not a test. */
const SETUP_TIMEOUT = 240_000;

// ---- the stage Worker, and one browser for the file started on first use --------------------------

let browserStarting;
after(async () => {
  if (browserStarting) await (await browserStarting).close().catch(() => {});
});
const getWorker = async () => stageWorker();
const getBrowser = () => (browserStarting ??= launchBrowser(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']));

// ---- HTTP against the stage Worker ---------------------------------------------------------------

/** A new account (its browser signs in through the form later). */
const account = (tag) => register({ email: uniqueEmail(tag) });

// ---- browser helpers ---------------------------------------------------------------------------------

/** A context whose every request is recorded: URL, all headers, and the body as bytes. */
async function recordedContext() {
  return recorded(await getBrowser(), (await getWorker()).origin, { timeout: STEP_TIMEOUT, microphone: true });
}

/** Handles the show-once modal: reads the key, downloads the .txt, ticks, closes. */
async function saveRecoveryKey(page) {
  const dialog = page.getByRole('dialog', { name: 'Save your recovery key' });
  await dialog.waitFor();
  const key = (await dialog.locator('pre').textContent()).trim();
  assert.match(key, /^([A-Z2-7]{4}-){12}[A-Z2-7]{4}$/);
  const close = dialog.getByRole('button', { name: 'Close', exact: true });
  assert.equal(await close.isDisabled(), true, 'Close waits for the tick');
  await page.keyboard.press('Escape');
  assert.equal(await dialog.isVisible(), true, 'Escape does not dismiss it');
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download recovery key' }).click()]);
  assert.equal(download.suggestedFilename(), 'afterword-recovery-key.txt');
  const filePath = await download.path();
  const text = readFileSync(filePath, 'utf8');
  assert.ok(text.includes(key), 'the .txt holds the key');
  await dialog.getByLabel('I have saved my recovery key').check();
  await close.click();
  await dialog.waitFor({ state: 'detached' });
  return { key, filePath, text };
}

async function storedToken(page) {
  return page.evaluate(() => localStorage.getItem('token'));
}

/** WCAG 2.x A/AA only (these pages are not held to axe's best-practice rules). */
const noSeriousA11yIssues = (page, label) => assertNoSeriousAxeViolations(page, label, { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });

/** Every spelling of a secret that could travel: as is, base64url, standard base64, hex. */
function spellings(label, value) {
  const out = [];
  if (typeof value === 'string') {
    out.push({ label, needle: Buffer.from(value, 'utf8') });
    const compact = value.replace(/-/g, '');
    if (compact !== value && /^[A-Z2-7]+$/.test(compact))
      out.push(
        { label: `${label} (no dashes)`, needle: Buffer.from(compact, 'utf8') },
        { label: `${label} (lower case)`, needle: Buffer.from(compact.toLowerCase(), 'utf8') },
      );
  } else {
    const bytes = Buffer.from(value);
    out.push(
      { label: `${label} (raw)`, needle: bytes },
      { label: `${label} (base64url)`, needle: Buffer.from(bytes.toString('base64url'), 'utf8') },
      { label: `${label} (base64)`, needle: Buffer.from(bytes.toString('base64').replace(/=+$/, ''), 'utf8') },
      { label: `${label} (hex)`, needle: Buffer.from(bytes.toString('hex'), 'utf8') },
    );
  }
  return out;
}

/** Where each secret shows up in the recorded requests (URL, any header, the body), also URL-encoded. */
function leaks(requests, secrets) {
  const found = [];
  for (const r of requests) {
    const parts = [Buffer.from(r.url, 'utf8'), Buffer.from(decodeURIComponent(r.url), 'utf8'), Buffer.from(JSON.stringify(r.headers), 'utf8')];
    if (r.body) parts.push(r.body);
    for (const s of secrets) if (parts.some((p) => p.includes(s.needle))) found.push(`${s.label} in ${r.method} ${r.url}`);
  }
  return found;
}

/** Node side: a user's private key, opened from their password_wrap with their password. */
async function nodePrivateKey(token, password) {
  const mine = await call('GET', '/api/keys/me', { token });
  assert.equal(mine.status, 200, `keys/me: ${mine.buf}`);
  return node.unwrapPrivateKey(mine.json.password_wrap, { password });
}

async function releaseNow(token, id) {
  const res = await call('POST', `/api/messages/deliver/${id}`, { token });
  assert.ok(res.status === 200 || res.status === 202, `deliver: ${res.status} ${res.buf}`);
}

/** An hour from now: long enough for the file uploads, then released by hand. */
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** Node seals a text (and optionally a file) for `recipientId` and creates + releases it over REST. */
async function nodeSealAndSend({ senderToken, recipientId, text, file }) {
  const pub = await call('GET', `/api/keys/${recipientId}`, { token: senderToken });
  assert.equal(pub.status, 200, `public key: ${pub.buf}`);
  const payload = { text };
  let encrypted;
  if (file) {
    encrypted = await node.encryptFile(Buffer.from(file.content, 'utf8'));
    payload.attachments = [{ iv: encrypted.ivText, key: encrypted.keyText, name: file.name, type: 'text/plain', size: Buffer.byteLength(file.content) }];
  }
  const { envelope } = await node.sealEnvelope({ payload, readers: [{ kid: recipientId, publicKey: pub.json.public_key }] });
  const created = await call('POST', '/api/message/create', {
    token: senderToken,
    body: {
      recipient_user_id: recipientId,
      content: '',
      content_encrypted: JSON.stringify(envelope),
      use_e2ee: true,
      delivery_method: 'email',
      rules: [],
      consent: true,
      deliver_at: inAnHour(),
    },
  });
  assert.equal(created.status, 201, `create: ${created.buf}`);
  const id = created.json.id;
  if (file) {
    const form = new FormData();
    form.append('file', new Blob([encrypted.ciphertext]), 'x.bin');
    form.append('message_id', id);
    form.append('iv', encrypted.ivBase64);
    form.append('name', file.name);
    const up = await call('POST', '/api/upload/encrypted-file', { token: senderToken, raw: form });
    assert.equal(up.status, 201, `upload: ${up.buf}`);
  }
  await releaseNow(senderToken, id);
  return id;
}

// ---- (a) zero knowledge + (b) interop ---------------------------------------------------------------

/** Fails a step whose input an earlier step was to provide, naming that step instead of a TypeError. */
function needs(value, what) {
  assert.ok(value, `needs ${what} (an earlier step failed)`);
  return value;
}

describe('E2EE between two browsers: a message with a recording and a file', () => {
  const TEXT_MARKER = `TEXT-MARKER-${randomUUID()}`;
  const FILE_MARKER = `FILE-MARKER-${randomUUID()}`;
  const FILE_NAME = 'letter-for-you.txt';
  const secretText = `Dear friend,\n${TEXT_MARKER}\nThe keys are in the blue box.`;
  /** What the steps hand on: accounts, contexts, recovery keys, the file key, the message id… */
  const j = {};

  before(
    async () => {
      j.worker = await getWorker();
      j.sender = await account('sender');
      j.recipient = await account('recipient');
      j.r = await recordedContext();
      j.s = await recordedContext();
    },
    { timeout: SETUP_TIMEOUT },
  );
  after(async () => {
    await j.s?.context.close();
    await j.r?.context.close();
  });

  /** Both tokens and both private keys (opened in Node from their password wraps), once. */
  let keys;
  async function tokensAndKeys() {
    keys ??= (async () => {
      const recipientToken = needs(await storedToken(j.r.page), "the recipient's session");
      const senderToken = needs(await storedToken(j.s.page), "the sender's session");
      const [senderKey, recipientKey] = await Promise.all([nodePrivateKey(senderToken, PASSWORD), nodePrivateKey(recipientToken, PASSWORD)]);
      return { recipientToken, senderToken, senderKey, recipientKey };
    })();
    return keys;
  }

  /** Every secret that must stay in the browsers, in every spelling that could travel. */
  async function secrets() {
    const { senderKey, recipientKey } = await tokensAndKeys();
    return [
      ...spellings('text marker', TEXT_MARKER),
      ...spellings('file marker', FILE_MARKER),
      ...spellings('file key', Buffer.from(needs(j.fileKey, 'the file key shown to the sender'), 'base64url')),
      ...spellings('sender recovery key', needs(j.senderRecovery, "the sender's recovery key").key),
      ...spellings('recipient recovery key', needs(j.recipientRecovery, "the recipient's recovery key").key),
      ...spellings('sender private key', senderKey.pkcs8),
      ...spellings('recipient private key', recipientKey.pkcs8),
      ...spellings('sender private d', Buffer.from(senderKey.privateKey.export({ format: 'jwk' }).d, 'base64url')),
      ...spellings('recipient private d', Buffer.from(recipientKey.privateKey.export({ format: 'jwk' }).d, 'base64url')),
    ];
  }

  test('each person signs in, and their browser makes their keys and shows the recovery key once', async () => {
    const { r, s, recipient, sender } = j;
    // The recipient signs in first: their keys are made in their browser and the recovery key shown once.
    await uiLogin(r.page, recipient.email, PASSWORD);
    j.recipientRecovery = await saveRecoveryKey(r.page);

    await uiLogin(s.page, sender.email, PASSWORD);
    j.senderRecovery = await saveRecoveryKey(s.page);
  });

  test('the sender writes an encrypted message with a recording and a file, and is shown the file key', async () => {
    const { s, recipient } = j;
    needs(j.senderRecovery, 'the sender signed in');
    // Create Message, reached in the app (no reload: the sender's key stays in this tab's memory).
    await s.page.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'Create Message' }).click();
    await h1(s.page, 'Create Message').waitFor();
    await s.page.getByLabel('Message', { exact: true }).fill(secretText);
    await s.page.getByLabel('Recipient User ID').fill(needs(recipient.user.id, "the recipient's id"));
    // Both have keys: end-to-end encryption turns itself on for this recipient, and says why.
    await s.page.getByText('On, because this recipient has encryption keys', { exact: false }).waitFor();
    assert.equal(await s.page.getByLabel('Use end-to-end encryption').isChecked(), true, 'on by default');
    await s.page.getByText(E2EE_WARNING, { exact: true }).waitFor();
    await s.page.getByRole('button', { name: 'Record', exact: true }).click();
    // At least a second of audio (the recorder hands over a chunk per second), seen on its clock.
    await s.page.locator('.recorder__time', { hasText: /^0:(0[1-9]|[1-5]\d)$/ }).waitFor();
    await s.page.getByRole('button', { name: 'Stop recording', exact: true }).click();
    await s.page.getByLabel('Preview of your recording').waitFor();
    await s.page
      .getByLabel('Choose files to encrypt')
      .setInputFiles({ name: FILE_NAME, mimeType: 'text/plain', buffer: Buffer.from(`P.S. ${FILE_MARKER}\n`, 'utf8') });
    const fileItem = s.page.getByRole('listitem', { name: FILE_NAME });
    await fileItem.waitFor();
    j.fileKey = (await fileItem.locator('code').textContent()).trim();
    assert.match(j.fileKey, /^[A-Za-z0-9_-]{43}$/, 'the file key is shown (base64url, 256 bits)');
    await fileItem.getByRole('button', { name: `Copy key for ${FILE_NAME}` }).waitFor();
    await s.page.getByText(/ of 1 GB used \(Free plan\)/).waitFor();
    await noSeriousA11yIssues(s.page, '/app/create with E2EE and a file');

    await s.page.getByRole('button', { name: 'Create message', exact: true }).click();
    await toast(s.page, 'Encrypted message saved').waitFor();
    await fileItem.getByText('Encrypted and uploaded', { exact: true }).waitFor();
    await screenshot(s.page, 'e2ee-create-uploaded');
    await s.page.getByRole('button', { name: 'Open the message', exact: true }).click();
    await s.page.waitForURL(/\/app\/messages\/view\/[0-9a-f-]{36}$/);
    j.messageId = s.page.url().split('/').pop();
  });

  test('the sender reads their own message (sealed for them too) and releases it', async () => {
    const { s } = j;
    needs(j.messageId, 'the message written above');
    await card(s.page, 'Message').getByText(TEXT_MARKER, { exact: false }).waitFor();
    await card(s.page, 'Message').getByRole('button', { name: 'Release now', exact: true }).click();
    await s.page.getByRole('dialog', { name: 'Release this message now?' }).getByRole('button', { name: 'Release now', exact: true }).click();
    await toast(s.page, 'Message released').waitFor();
    j.released = true;
  });

  test("the recipient's browser opens the text, the recording and the file", async () => {
    const { r, sender } = j;
    const messageId = needs(j.released && j.messageId, 'the released message');
    // In the app without a reload: Inbox preview and the message, opened locally.
    await r.page.getByRole('main').getByRole('link', { name: 'Inbox', exact: true }).click();
    await h1(r.page, 'Inbox').waitFor();
    const item = r.page.locator('.message-item', { hasText: `From ${sender.email}` });
    await item.locator('.message-item__excerpt').getByText('Dear friend,', { exact: true }).waitFor();
    await item.getByRole('link', { name: /^Open/ }).click();
    await r.page.waitForURL(`**/app/inbox/${messageId}`);
    const content = card(r.page, 'Message').locator('.message-content');
    await content.waitFor();
    assert.equal(await content.textContent(), secretText, 'the recipient reads the exact text');
    const audio = card(r.page, 'Message').locator('audio');
    await audio.waitFor();
    assert.match(await audio.getAttribute('src'), /^blob:/);
    const duration = await audio.evaluate(
      (a) => new Promise((res) => (a.readyState >= 1 ? res(a.duration) : a.addEventListener('loadedmetadata', () => res(a.duration), { once: true }))),
    );
    assert.ok(duration > 0 || duration === Infinity, `the decrypted recording is playable audio (duration ${duration})`);
    const [download] = await Promise.all([r.page.waitForEvent('download'), r.page.getByRole('button', { name: `Download ${FILE_NAME}` }).click()]);
    assert.equal(download.suggestedFilename(), FILE_NAME);
    assert.equal(readFileSync(await download.path(), 'utf8'), `P.S. ${FILE_MARKER}\n`, 'the recipient gets the exact file');
    await screenshot(r.page, 'e2ee-recipient-opened');
    await noSeriousA11yIssues(r.page, '/app/inbox/{id} (E2EE, opened)');
    j.opened = true;
  });

  test('after a reload the key is gone until the right password unlocks it again', async () => {
    const { r } = j;
    needs(j.opened, 'the message opened by the recipient');
    await r.page.reload();
    const prompt = r.page.getByRole('form', { name: 'Unlock encrypted messages' });
    await prompt.waitFor();
    assert.equal(await r.page.getByText(TEXT_MARKER).count(), 0);
    await prompt.getByLabel('Password').fill('not-my-password-at-all');
    await prompt.getByRole('button', { name: 'Unlock' }).click();
    await prompt.getByText('That password does not unlock your encryption keys. Use the password you sign in with.').waitFor();
    await prompt.getByLabel('Password').fill(PASSWORD);
    await prompt.getByRole('button', { name: 'Unlock' }).click();
    await card(r.page, 'Message').locator('.message-content').getByText(TEXT_MARKER, { exact: false }).waitFor();
    await screenshot(r.page, 'e2ee-unlocked-after-reload');
  });

  test('no request carried the text, the file, the file key, a private key or a recovery key', async () => {
    needs(j.opened, 'the whole exchange above');
    const requests = [...(await j.s.requests()), ...(await j.r.requests())];
    j.requests = requests;
    assert.ok(requests.length > 20, `requests were recorded (${requests.length})`);
    const create = requests.find((q) => /message\.create/.test(q.url));
    assert.ok(create?.body?.includes(Buffer.from('content_encrypted')), 'the create request body was recorded and carries the envelope');
    const upload = requests.find((q) => q.url.endsWith('/api/upload/encrypted-file'));
    assert.ok(upload, 'the upload request was recorded');
    assert.ok(upload.body && upload.body.length > 16, `the upload body (multipart) was recorded (${upload.body?.length ?? 'none'} bytes)`);
    assert.deepEqual(
      requests.filter((q) => q.url.includes('/download/decrypted-file')).map((q) => q.url),
      [],
      'the web app never hands a file key to the server',
    );
    assert.deepEqual(leaks(requests, await secrets()), [], 'no secret in any request');
    // The check can see: the password does travel (sign-in sends it, by design), and so does the file's ciphertext.
    assert.ok(
      leaks(requests, spellings('password', PASSWORD)).some((l) => /auth\.login/.test(l)),
      'request bodies are really inspected',
    );
  });

  test('no D1 row and no stored byte (D1 files, R2 blobs) holds any of those secrets', async () => {
    const { worker, sender } = j;
    const messageId = needs(j.opened && j.messageId, 'the whole exchange above');
    const { recipientToken } = await tokensAndKeys();
    const all = await secrets();
    // Two wrangler processes in all: the named rows with the table list, then every row of every table.
    const [messages, userKeys, attachments, , tables] = await d1Batch(worker.persistDir, [
      `SELECT * FROM messages WHERE id = '${messageId}'`,
      'SELECT * FROM user_keys',
      `SELECT * FROM message_attachments WHERE message_id = '${messageId}'`,
      'SELECT * FROM outbox_messages',
      "SELECT name FROM sqlite_master WHERE type = 'table'",
    ]);
    assert.equal(messages.length, 1);
    assert.equal(messages[0].content, '');
    assert.ok(messages[0].content_encrypted.length > 100, 'the envelope is stored');
    assert.equal(attachments.length, 1);
    assert.ok(userKeys.length >= 2);
    // Every table, every row: the markers are nowhere.
    const names = tables.map((t) => t.name).filter((name) => !name.startsWith('_cf_'));
    assert.ok(names.includes('messages') && names.includes('user_keys'), `the table list is real (${names.join(', ')})`);
    const dumpText = (
      await d1Batch(
        worker.persistDir,
        names.map((name) => `SELECT * FROM "${name}"`),
      )
    )
      .map((rows) => JSON.stringify(rows))
      .join('\n');
    assert.ok(dumpText.includes(sender.email), 'the dump is real (it has the sender email)');
    assert.deepEqual(
      all.filter((sec) => Buffer.from(dumpText, 'utf8').includes(sec.needle)).map((sec) => sec.label),
      [],
      'no secret in any D1 row',
    );

    const tree = readTree(worker.persistDir);
    assert.ok(filesContaining(tree, sender.email).length > 0, 'the raw scan sees D1 text');
    const attachmentCt = await call('GET', `/api/attachments/${attachments[0].id}/ciphertext`, { token: recipientToken });
    assert.equal(attachmentCt.status, 200);
    assert.ok(filesContaining(tree, attachmentCt.buf).length > 0, 'the raw scan sees the R2 blob of the attachment');
    const upload = (j.requests ?? (await j.s.requests())).find((q) => q.url.endsWith('/api/upload/encrypted-file'));
    assert.ok(upload?.body?.includes(attachmentCt.buf), 'the recorded upload body is exactly what was stored');
    const stored = all.flatMap((sec) => filesContaining(tree, sec.needle).map((p) => `${sec.label} in ${p}`));
    assert.deepEqual(stored, [], 'no secret in any stored byte');
  });

  test('Node opens what the browser sealed: the text and the recording for the recipient, the file with the shown key, the text for the sender', async () => {
    const { recipient, sender } = j;
    const messageId = needs(j.released && j.messageId, 'the released message');
    const { recipientToken, senderKey, recipientKey } = await tokensAndKeys();
    const asRecipient = await call('GET', `/api/message/${messageId}`, { token: recipientToken });
    assert.equal(asRecipient.status, 200);
    assert.equal(asRecipient.json.message.content, '');
    const opened = await node.openEnvelope(asRecipient.json.message.content_encrypted, { kid: recipient.user.id, privateKey: recipientKey.privateKey });
    assert.equal(opened.payload.text, secretText, 'Node opens the browser envelope');
    const audioCt = await call('GET', `/api/message/${messageId}/audio`, { token: recipientToken });
    const audioPlain = await node.openAudio(opened.contentKey, opened.payload.audio.iv, audioCt.buf);
    assert.deepEqual([...audioPlain.subarray(0, 4)], [0x1a, 0x45, 0xdf, 0xa3], 'the sealed audio is the WebM recording');
    const entry = opened.payload.attachments[0];
    assert.equal(entry.key, j.fileKey, 'the shown key is the one sealed for the reader');
    const listed = await call('GET', `/api/message/${messageId}/attachments`, { token: recipientToken });
    assert.equal(listed.status, 200);
    assert.equal(listed.json.length, 1);
    const attachmentCt = await call('GET', `/api/attachments/${listed.json[0].id}/ciphertext`, { token: recipientToken });
    assert.equal(attachmentCt.status, 200);
    assert.equal((await node.decryptFile(entry.key, entry.iv, attachmentCt.buf)).toString('utf8'), `P.S. ${FILE_MARKER}\n`);
    const senderOpened = await node.openMessage(asRecipient.json.message.content_encrypted, {
      kid: sender.user.id,
      privateKey: senderKey.privateKey,
    });
    assert.equal(senderOpened.text, secretText, 'sealed for the sender too');
  });

  test("the recipient's browser opens what Node sealed: the text and the file", async () => {
    const { r, recipient } = j;
    needs(j.opened, 'the recipient signed in, with the message view open');
    const { senderToken } = await tokensAndKeys();
    const NODE_MARKER = `NODE-MARKER-${randomUUID()}`;
    const NODE_FILE = `NODE-FILE-${randomUUID()}`;
    const nodeId = await nodeSealAndSend({
      senderToken,
      recipientId: recipient.user.id,
      text: `Sealed by Node: ${NODE_MARKER}`,
      file: { name: 'node.txt', content: NODE_FILE },
    });
    await r.page.getByRole('link', { name: 'Back to your Inbox' }).click();
    await h1(r.page, 'Inbox').waitFor();
    await r.page.locator('.message-item__excerpt').getByText(`Sealed by Node: ${NODE_MARKER}`, { exact: true }).waitFor();
    await r.page.goto(`/app/messages/view/${nodeId}`);
    await r.page.getByRole('form', { name: 'Unlock encrypted messages' }).getByLabel('Password').fill(PASSWORD);
    await r.page.getByRole('button', { name: 'Unlock' }).click();
    await card(r.page, 'Message').locator('.message-content').getByText(`Sealed by Node: ${NODE_MARKER}`, { exact: true }).waitFor();
    const [nodeDownload] = await Promise.all([r.page.waitForEvent('download'), r.page.getByRole('button', { name: 'Download node.txt' }).click()]);
    assert.equal(readFileSync(await nodeDownload.path(), 'utf8'), NODE_FILE, 'the browser decrypts a Node-encrypted file');
  });

  test('neither browser logged an unexpected console error', () => {
    const unexpected = [...j.s.errors, ...j.r.errors].filter((e) => !/status of (401|404)|Failed to load resource/.test(e.text));
    assert.deepEqual(unexpected, [], 'no console errors');
  });
});

// ---- (c) password change and the two kinds of reset ------------------------------------------------

/**
 * The newest reset link in `email`'s own local mailbox, read with a session of that same account (`token`):
 * the outbox shows each account only what was sent to it, so nobody else can read the link.
 */
async function resetLink(token, email, notBefore) {
  return eventually(async () => {
    const box = await call('GET', '/api/outbox?limit=100', { token });
    return box.json?.messages?.find((m) => m.address === email && /reset/i.test(m.subject) && Date.parse(m.created_at) >= notBefore && m.link)?.link;
  }, `a reset email for ${email}`);
}

async function openMessageView(page, id, password) {
  await page.goto(`/app/messages/view/${id}`);
  const prompt = page.getByRole('form', { name: 'Unlock encrypted messages' });
  const content = card(page, 'Message').locator('.message-content, .e2ee-failure');
  await Promise.race([prompt.waitFor(), content.first().waitFor()]);
  if (password && (await prompt.count())) {
    await prompt.getByLabel('Password').fill(password);
    await prompt.getByRole('button', { name: 'Unlock' }).click();
  }
  await content.first().waitFor();
}

describe('E2EE recovery: what a password change and the two kinds of reset do to an old message', () => {
  const MARKER = `OLD-MESSAGE-${randomUUID()}`;
  const PW2 = 'Second-Password-Strong-7';
  const PW3 = 'Third-Password-Strong-8';
  const PW4 = 'Fourth-Password-Strong-9';
  /** The owner's context and page, their recovery key, the friend's token, the old message… */
  const j = {};

  before(
    async () => {
      j.owner = await account('owner');
      j.friend = await account('friend');
      j.friendToken = await login(j.friend.email);
      j.o = await recordedContext();
      const { page } = j.o;
      await uiLogin(page, j.owner.email, PASSWORD);
      j.recovery = await saveRecoveryKey(page);
      j.ownerId = (await call('GET', '/api/auth/me', { token: await storedToken(page) })).json.id;
      j.oldId = await nodeSealAndSend({ senderToken: j.friendToken, recipientId: j.ownerId, text: `Before everything: ${MARKER}` });
    },
    { timeout: SETUP_TIMEOUT },
  );
  after(async () => {
    await j.o?.context.close();
  });

  /**
   * Logs out and follows a fresh reset link for the owner. The owner reads the reset email in their own
   * mailbox from a second session (their phone, say), taken with their current password before the
   * reset: password changes and resets revoke the other sessions, and the outbox shows the link to no one else.
   */
  async function followResetLink(page, { viaForgotLink, currentPassword }) {
    const mailbox = await login(j.owner.email, currentPassword);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    if (viaForgotLink) {
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await h1(page, 'Forgot your password?').waitFor();
    } else {
      await page.goto('/forgot-password');
    }
    const since = Date.now() - 1000;
    await page.getByLabel('Email').fill(j.owner.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('If an account exists, we sent a link', { exact: false }).waitFor();
    await page.goto(await resetLink(mailbox, j.owner.email, since));
  }

  test('a password change re-wraps the same keys in the browser: the old message still opens', async () => {
    const { page } = j.o;
    await page.goto('/app/notifications');
    const section = card(page, 'Password and encryption keys');
    await section.getByLabel('Current password').fill('wrong-current-password');
    await section.getByLabel(/^New password/).fill(PW2);
    await section.getByLabel('Repeat the new password').fill(PW2);
    await section.getByRole('button', { name: 'Change password' }).click();
    await section.getByText('The current password is not correct').waitFor();
    await section.getByLabel('Current password').fill(PASSWORD);
    await section.getByRole('button', { name: 'Change password' }).click();
    await toast(page, 'Password changed').waitFor();
    await card(page, 'Storage')
      .getByText(/ of 1 GB used \(Free plan\)/)
      .waitFor();
    await screenshot(page, 'e2ee-password-section');
    await openMessageView(page, j.oldId, PW2);
    await card(page, 'Message').getByText(MARKER, { exact: false }).waitFor();
    j.changed = true;
  });

  test('a reset with the recovery key (uploaded as the saved .txt) keeps access to the old message', async () => {
    const { page } = j.o;
    needs(j.changed, 'the password change above (PW2)');
    await followResetLink(page, { viaForgotLink: true, currentPassword: PW2 });
    await h1(page, 'Choose a new password').waitFor();
    await page.getByLabel('Upload recovery key file (.txt)').setInputFiles(j.recovery.filePath);
    // The page reads the file asynchronously into the key's field: check once it is there (a busy machine
    // read it after an immediate click, which then checked an empty field).
    await page.waitForFunction((key) => document.querySelector('textarea[name="recovery_key"]')?.value.includes(key), j.recovery.key);
    await page.getByRole('button', { name: 'Check recovery key' }).click();
    await page.getByText('Recovery key accepted', { exact: false }).waitFor();
    await noSeriousA11yIssues(page, '/reset-password with the recovery key');
    await page.getByLabel(/^New password/).fill(PW3);
    await page.getByLabel('Repeat the new password').fill(PW3);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL((u) => u.pathname === '/app');
    await openMessageView(page, j.oldId, PW3);
    await card(page, 'Message').getByText(MARKER, { exact: false }).waitFor();
    j.resetWithKey = true;
  });

  test('a reset without the recovery key warns, asks for a tick and makes new keys; the old message then says it is encrypted for another key', async () => {
    const { page } = j.o;
    needs(j.resetWithKey, 'the reset with the recovery key above (PW3)');
    await followResetLink(page, { viaForgotLink: false, currentPassword: PW3 });
    await page.getByRole('button', { name: 'I don’t have my recovery key' }).click();
    await page.getByText('can never be opened again', { exact: false }).waitFor();
    await page.getByLabel(/^New password/).fill(PW4);
    await page.getByLabel('Repeat the new password').fill(PW4);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Tick the box to confirm, or go back and enter your recovery key.').waitFor();
    await page.getByLabel('I understand that my end-to-end encrypted messages and files will be lost').check();
    await screenshot(page, 'e2ee-reset-without-recovery-key');
    await page.getByRole('button', { name: 'Set new password' }).click();
    j.newRecovery = await saveRecoveryKey(page);
    assert.notEqual(j.newRecovery.key, j.recovery.key, 'a new recovery key');
    await page.waitForURL((u) => u.pathname === '/app');
    await openMessageView(page, j.oldId, PW4);
    const failure = card(page, 'Message').getByRole('alert');
    await failure.waitFor();
    assert.match(await failure.textContent(), /^This message is encrypted for another key\./);
    assert.equal(await page.getByText(MARKER).count(), 0, 'nothing of the old message is shown');
    await screenshot(page, 'e2ee-old-message-after-new-keys');
  });

  test('a message sealed for the new keys opens', async () => {
    const { page } = j.o;
    needs(j.newRecovery, 'the new keys made above (PW4)');
    const NEW_MARKER = `NEW-MESSAGE-${randomUUID()}`;
    const newId = await nodeSealAndSend({ senderToken: j.friendToken, recipientId: j.ownerId, text: NEW_MARKER });
    await openMessageView(page, newId, PW4);
    await card(page, 'Message').getByText(NEW_MARKER, { exact: true }).waitFor();
  });

  test('none of this sent a recovery key or the old message anywhere', async () => {
    needs(j.newRecovery, 'both resets above');
    const requests = await j.o.requests();
    const secrets = [
      ...spellings('old recovery key', j.recovery.key),
      ...spellings('new recovery key', j.newRecovery.key),
      ...spellings('old message', MARKER),
    ];
    assert.deepEqual(leaks(requests, secrets), [], 'no recovery key or plaintext in any request');
  });
});
