// Community (docs/decisions/community.md): an author writes an anonymous capsule on the Capsules page, sees it under My
// capsules and among the open ones, and reads it on its page without their name; they make a memorial,
// post on it, light a candle on a friend's post, sort the posts by candles, and find them in Remembrances.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, test } from 'node:test';
import { launchBrowser, screenshot } from '../support/browser.mjs';
import { assertNoSeriousAxeViolations, card, h1, toast, unexpectedConsoleErrors, dismissRecoveryKeyIfShown } from '../support/page.mjs';
import { stageWorker } from '../support/stage-worker.mjs';
import { api as call, uniqueEmail } from '../support/http.mjs';
import { accountWithToken, signedInPage } from '../support/session.mjs';

const STEP_TIMEOUT = 60_000;

let browserStarting;
after(async () => {
  if (browserStarting) await (await browserStarting).close().catch(() => {});
});
/** The moderator of the stage's Worker (MODERATOR_EMAILS), for the review-queue journey. */
const MODERATOR_EMAIL = stageWorker().moderatorEmail;
const getWorker = async () => stageWorker();
const getBrowser = () => (browserStarting ??= launchBrowser());

const account = (name, email = uniqueEmail(name)) => accountWithToken({ email });

/** A signed-in page on the test's Worker with the Welcome modal already seen. */
async function browserAs(token, path) {
  const { origin } = await getWorker();
  return signedInPage(await getBrowser(), token, path, { baseURL: origin, width: 1280, height: 900, timeout: STEP_TIMEOUT });
}

test('community: write an anonymous capsule and find it open; make a memorial, post, light a candle, sort by candles, find it in Remembrances', {
  timeout: 300_000,
}, async () => {
  const author = await account('ann');
  const friend = await account('bob');
  const title = `To whoever reads this ${randomUUID().slice(0, 6)}`;
  const { context, page, errors } = await browserAs(author.token, '/app/capsules');
  try {
    // 1. The capsule.
    await dismissRecoveryKeyIfShown(page, h1(page, 'Capsules'));
    await h1(page, 'Capsules').waitFor();
    await card(page, 'My capsules').getByText('You have not written a capsule yet.').waitFor();
    await assertNoSeriousAxeViolations(page, '/app/capsules (empty)');
    const form = page.getByRole('form', { name: 'Write a capsule' });
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Theme').selectOption('Advice');
    await form.getByLabel('Letter').fill('<b>Be kind</b> to yourself.');
    await form.getByRole('button', { name: 'Save capsule' }).click();
    await toast(page, 'Capsule saved').waitFor();
    const mine = card(page, 'My capsules');
    await mine.getByRole('link', { name: title }).waitFor();
    await mine.getByText('Open', { exact: true }).waitFor();
    await card(page, 'Open capsules').getByLabel('Theme').selectOption('Advice');
    await card(page, 'Open capsules').getByRole('link', { name: title }).click();
    await h1(page, title).waitFor();
    await page.getByText('<b>Be kind</b> to yourself.').waitFor();
    await page.getByText('This capsule is yours: you can delete it on the Capsules page.').waitFor();
    assert.match(await page.locator('.page-header__intro').textContent(), /Anonymous/);
    // The shell names whoever is signed in; the capsule itself never names its author.
    assert.ok(!(await page.getByRole('main').innerHTML()).includes(author.email), 'the author’s email is nowhere in the capsule');
    await assertNoSeriousAxeViolations(page, '/app/capsule/{id}');

    // 2. The memorial.
    await page.goto('/app/memorial');
    await h1(page, 'Memorials').waitFor();
    const make = page.getByRole('form', { name: 'Make a memorial' });
    await make.getByLabel('Name').fill('Grace Quill');
    await make.getByLabel('Epitaph').fill('She taught us to read');
    await make.getByLabel('Tags').fill('teachers');
    await make.getByRole('button', { name: 'Make memorial' }).click();
    await h1(page, 'Grace Quill').waitFor();
    const memorialId = new URL(page.url()).pathname.split('/').at(-1);
    const friendsPost = await call('POST', `/api/memorial/${memorialId}/post`, { token: friend.token, body: { text: 'She read to us every Friday' } });
    assert.equal(friendsPost.status, 201, friendsPost.text);

    const share = page.getByRole('form', { name: 'Post a memory' });
    await share.getByLabel('Your words').fill('I still have her books');
    await share.getByLabel('Photo or link').fill('https://example.com/story');
    await share.getByRole('button', { name: 'Post' }).click();
    const posts = page.getByRole('list', { name: 'Posts' });
    await posts.getByText('I still have her books').waitFor();
    await posts.getByRole('link', { name: 'example.com/story' }).waitFor();
    await posts.getByText('She read to us every Friday').waitFor();
    const texts = () => posts.locator('.community-text').allTextContents();
    assert.deepEqual(await texts(), ['I still have her books', 'She read to us every Friday']);

    // 3. A candle on the friend's post, then the posts by candles.
    const friendItem = posts.getByRole('listitem').filter({ hasText: 'She read to us every Friday' });
    await friendItem.getByRole('button', { name: 'Light a candle' }).click();
    await friendItem.getByRole('button', { name: 'Candle lit' }).waitFor();
    await friendItem.getByText('1 candle', { exact: true }).waitFor();
    await page.getByLabel('Sort').selectOption('candles');
    await page.waitForFunction(() => document.querySelector('ul[aria-label="Posts"] .community-text')?.textContent === 'She read to us every Friday');
    assert.deepEqual(await texts(), ['She read to us every Friday', 'I still have her books']);
    await screenshot(page, 'memorial');
    await assertNoSeriousAxeViolations(page, '/app/memorial/{id}');

    // 4. Found from the Memorials page by tag.
    await page.goto('/app/memorial');
    await page.getByLabel('Tag', { exact: true }).selectOption('teachers');
    await page.getByRole('list', { name: 'Memorials' }).getByRole('link', { name: 'Grace Quill' }).first().waitFor();
    await assertNoSeriousAxeViolations(page, '/app/memorial');

    // 5. Remembrances: found by the memorial's name, most candles first.
    await page.goto('/app/remembrances');
    await h1(page, 'Remembrances').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Grace Quill');
    await page.getByLabel('Sort').selectOption('candles');
    const found = page.getByRole('list', { name: 'Remembrances' });
    await page.waitForFunction(() => document.querySelector('ul[aria-label="Remembrances"] .community-text')?.textContent === 'She read to us every Friday');
    await found.getByText('I still have her books').waitFor();
    await assertNoSeriousAxeViolations(page, '/app/remembrances');
    assert.deepEqual(unexpectedConsoleErrors(errors), []);
  } finally {
    await context.close();
  }
});

test('community: three reports hide a capsule; the moderator finds it from Memorials and restores it', { timeout: 5 * STEP_TIMEOUT }, async () => {
  const [author, moderator, ...readers] = await Promise.all([
    account('author'),
    account('moderator', MODERATOR_EMAIL),
    account('r1'),
    account('r2'),
    account('r3'),
  ]);
  const created = await call('POST', '/api/capsule/create', {
    token: author.token,
    body: { title: 'Reported by mistake', theme: 'Advice', content: [{ type: 'text', data: 'Call your mother.' }] },
  });
  assert.equal(created.status, 201);
  for (const r of readers) assert.equal((await call('POST', `/api/capsule/${created.json.id}/report`, { token: r.token })).status, 200);
  assert.equal((await call('GET', `/api/capsule/view/${created.json.id}`)).status, 404);

  const { context, page, errors } = await browserAs(moderator.token, '/app/memorial');
  try {
    await dismissRecoveryKeyIfShown(page, h1(page, 'Memorials'));
    await page.getByRole('link', { name: /^Review queue \(\d+ waiting\)$/ }).click();
    await h1(page, 'Review queue').waitFor();
    const item = page.getByRole('listitem', { name: 'Capsule “Reported by mistake”' });
    await item.getByText('Reported by 3 people').waitFor();
    await assertNoSeriousAxeViolations(page, '/app/moderation');
    await item.getByRole('button', { name: 'Restore' }).click();
    await toast(page, 'Restored: public again').waitFor();
    await item.waitFor({ state: 'detached' });
    assert.equal((await call('GET', `/api/capsule/view/${created.json.id}`)).status, 200);
    assert.deepEqual(unexpectedConsoleErrors(errors), []);
  } finally {
    await context.close();
  }
});
