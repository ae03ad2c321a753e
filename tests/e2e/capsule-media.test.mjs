// A capsule's audio in Chromium (docs/decisions/community.md): the author adds a WAV with WebVTT captions to a
// sealed capsule from the Capsules page, and the capsule's page plays it — read with the author's session,
// since nobody else may yet — with the captions as a track the browser loads.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { launchBrowser, screenshot } from '../support/browser.mjs';
import { api } from '../support/http.mjs';
import { assertNoSeriousAxeViolations, h1, toast } from '../support/page.mjs';
import { accountWithToken, signedInPage } from '../support/session.mjs';

const SPEECH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'worker', 'test', 'fixtures', 'voice', 'speech.wav'); // 3.713 s
const CAPTIONS = 'WEBVTT\n\n00:00.000 --> 00:03.000\nHello from the past\n';

let browserStarting;
after(async () => {
  if (browserStarting) await (await browserStarting).close();
});
const getBrowser = () => (browserStarting ??= launchBrowser());

test('capsule media: add a recording with captions to a sealed capsule, and play it on its page', async () => {
  const acct = await accountWithToken();
  const created = await api('POST', '/api/capsule/create', {
    token: acct.token,
    body: { title: 'For my granddaughter', theme: 'Love', release_at: '2099-01-01', content: [{ type: 'text', data: 'Read this when you are twenty.' }] },
  });
  assert.equal(created.status, 201);
  const { page, context, errors } = await signedInPage(await getBrowser(), acct.token, '/app/capsules', { timeout: 60_000 });
  try {
    await h1(page, 'Capsules').waitFor();
    await page.getByRole('button', { name: 'Add audio or video' }).click();
    const form = page.getByRole('group', { name: 'Add audio or video to “For my granddaughter”' });
    await form.getByLabel('File').setInputFiles(SPEECH);
    await form.getByLabel('Captions (optional, WebVTT .vtt)').setInputFiles({ name: 'hello.vtt', mimeType: 'text/vtt', buffer: Buffer.from(CAPTIONS) });
    await form.getByRole('button', { name: 'Add file' }).click();
    await toast(page, 'Recording added').waitFor();
    await page.getByRole('list', { name: 'Audio and video of “For my granddaughter”' }).getByText('Recording 1 (with captions)').waitFor();
    await assertNoSeriousAxeViolations(page, 'capsules with the media form');

    await page.getByRole('link', { name: 'For my granddaughter' }).click();
    await h1(page, 'For my granddaughter').waitFor();
    const audio = page.getByLabel('Recording 1');
    await audio.waitFor();
    // The browser read the bytes (through the session) and knows their length.
    await page.waitForFunction(() => {
      const el = document.querySelector('audio');
      return el && el.readyState >= 1 && Number.isFinite(el.duration);
    });
    await audio.evaluate((el) => {
      el.textTracks[0].mode = 'showing';
    });
    await page.waitForFunction(() => (document.querySelector('audio')?.textTracks[0]?.cues?.length ?? 0) > 0);
    const [duration, src, cues] = await audio.evaluate((el) => [el.duration, el.getAttribute('src'), Array.from(el.textTracks[0].cues, (c) => c.text)]);
    assert.ok(Math.abs(duration - 3.713) < 0.1, `the recording plays for ${duration} s`);
    assert.match(src, /^blob:/, 'a sealed capsule’s file is read with the session, not by a public path');
    assert.deepEqual(cues, ['Hello from the past']);
    await screenshot(page, 'capsule-media');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
