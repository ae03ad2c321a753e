// A half-written message survives a reload (web/src/features/messages/message-draft.ts): what was typed
// comes back in a real Chromium, the draft at rest in IndexedDB holds none of its words, and creating the
// message drops it.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sharedBrowser } from '../support/browser.mjs';
import { eventuallyStored } from '../support/drafts.mjs';
import { h1 } from '../support/page.mjs';
import { accountWithToken, signedInPage } from '../support/session.mjs';

const getBrowser = sharedBrowser({ after });
const WORDS = 'Dear Sam, the spare key is under the blue pot. marker-4471';

test('drafts: a half-written message survives a reload, is sealed at rest, and goes once the message is created', async () => {
  const [owner, recipient] = await Promise.all([accountWithToken(), accountWithToken()]);
  const { page, context, errors } = await signedInPage(await getBrowser(), owner.token, '/app/create', { timeout: 60_000 });
  try {
    await h1(page, 'Create Message').waitFor();
    await page.getByLabel('Message', { exact: true }).fill(WORDS);
    await page.getByLabel('Recipient User ID').fill(recipient.user.id);
    const sealed = await eventuallyStored(page, true);
    assert.ok(!sealed.includes('marker-4471') && !sealed.includes('spare key'), 'the words are not at rest in clear text');

    await page.reload();
    await page.getByText('Draft restored from').waitFor();
    assert.equal(await page.getByLabel('Message', { exact: true }).inputValue(), WORDS);
    assert.equal(await page.getByLabel('Recipient User ID').inputValue(), recipient.user.id);

    await page.getByRole('button', { name: 'Create message', exact: true }).click();
    await page.waitForURL(/\/app\/messages\/view\//);
    await eventuallyStored(page, false);
    await page.goto('/app/create');
    await h1(page, 'Create Message').waitFor();
    assert.equal(await page.getByLabel('Message', { exact: true }).inputValue(), '');
    assert.equal(await page.getByText('Draft restored from').count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
