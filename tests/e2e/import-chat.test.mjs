// Import Chat in Chromium (docs/decisions/chat-import.md): a Facebook export (Meta's latin-1-escaped UTF-8)
// goes up from the page, the status reads 'uploading' then 'queued: {job_id}', the Worker's real JOBS
// consumer reads it and asks which sender the owner is, the owner picks herself, and the import
// completes with her lines kept — repaired — as persona material.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { launchBrowser, screenshot } from '../support/browser.mjs';
import { api } from '../support/http.mjs';
import { assertNoSeriousAxeViolations, card, h1 } from '../support/page.mjs';
import { accountWithToken, signedInPage } from '../support/session.mjs';

/** Each UTF-8 byte as its own code unit, as Meta's exports write text. */
const metaEscaped = (text) => String.fromCharCode(...new TextEncoder().encode(text));

const facebookExport = {
  participants: [{ name: metaEscaped('Zoë Brontë') }, { name: 'Sam Carter' }],
  messages: [
    { sender_name: metaEscaped('Zoë Brontë'), timestamp_ms: 1_700_000_200_000, content: metaEscaped('Crème brûlée, always.') },
    { sender_name: 'Sam Carter', timestamp_ms: 1_700_000_100_000, content: "What's your favourite dessert?" },
  ],
  title: metaEscaped('Zoë Brontë'),
  thread_path: 'inbox/zoebronte_123',
};

let browserStarting;
after(async () => {
  if (browserStarting) await (await browserStarting).close();
});
const getBrowser = () => (browserStarting ??= launchBrowser());

test('import chat: upload a Facebook export, say which sender you are, and see your lines imported', async () => {
  const acct = await accountWithToken();
  const { page, context, errors } = await signedInPage(await getBrowser(), acct.token, '/app/import', { timeout: 60_000 });
  try {
    await h1(page, 'Import Chat').waitFor();
    const upload = page.getByRole('button', { name: 'Upload', exact: true });
    assert.equal(await upload.isDisabled(), true, 'Upload is disabled until a file is chosen');
    await page.getByLabel('Chat export (JSON)').setInputFiles({
      name: 'message_1.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(facebookExport)),
    });
    await upload.click();
    await page
      .getByRole('status')
      .filter({ hasText: /^queued: [0-9a-f-]{36}$/ })
      .waitFor();
    const jobId = (
      await page
        .getByRole('status')
        .filter({ hasText: /^queued:/ })
        .textContent()
    ).replace('queued: ', '');

    const current = card(page, 'This import');
    const group = current.getByRole('group', { name: 'Which of these is you?' });
    await group.waitFor();
    await assertNoSeriousAxeViolations(page, 'import chat asking for the sender');
    await group.getByRole('radio', { name: /^Zoë Brontë/ }).check();
    await group.getByRole('button', { name: 'This is me' }).click();
    await current.getByText('1 of your lines kept, from 2 messages').waitFor();
    await card(page, 'Your imports').getByText('Facebook / Instagram').waitFor();
    await screenshot(page, 'import-chat-complete');

    const done = (await api('GET', `/api/imports/chat-history/${jobId}`, { token: acct.token })).json;
    assert.deepEqual([done.status, done.self_sender, done.line_count], ['complete', 'Zoë Brontë', 1]);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
