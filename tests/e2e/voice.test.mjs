// The Voice Trainer in Chromium with a fake microphone (issue 16 section 6 "Browser"): the persona is set
// up with the seed questions; Chromium's
// MediaRecorder records espeak-ng speech from a WAV played as the microphone, the page uploads the WebM it
// made (no Duration element: the server reads the length from its blocks), several WAV files go up at
// once, and training runs through the Worker's real JOBS consumer until the page says it is complete.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { launchBrowser, newContext, screenshot } from '../support/browser.mjs';
import { api } from '../support/http.mjs';
import { assertNoSeriousAxeViolations, card, h1, toast } from '../support/page.mjs';
import { accountWithToken, openSignedIn } from '../support/session.mjs';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'worker', 'test', 'fixtures', 'voice');
const SPEECH = join(fixtures, 'speech.wav'); // 3.713 s of espeak-ng speech
const readSpeech = () => readFileSync(SPEECH);

let browserStarting;
after(async () => {
  if (browserStarting) await (await browserStarting).close();
});
const getBrowser = () =>
  (browserStarting ??= launchBrowser(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-audio-capture=${SPEECH}`]));

test('voice trainer: record with the microphone, upload several files, train to complete', async () => {
  const acct = await accountWithToken();
  const { context, errors } = await newContext(await getBrowser());
  await context.grantPermissions(['microphone']);
  const page = await context.newPage();
  context.setDefaultTimeout(60_000);
  try {
    await openSignedIn(page, acct.token, '/app/voice-legacy');
    await h1(page, 'Voice Trainer').waitFor();
    await page.getByText('This is a voice profile, not a neural clone').waitFor();
    await page.getByText(/Engine:.*Local/).waitFor();
    // Persona setup: the ten seed questions, a tone, saved.
    await page.getByLabel('What advice would you give the people you love?').fill('Be kind, and call your mother.');
    await page.getByLabel('Tone').selectOption('comforting');
    await page.getByRole('button', { name: 'Save persona' }).click();
    await toast(page, 'Persona saved').waitFor();
    const persona = (await api('GET', '/api/ai/profile', { token: acct.token })).json;
    assert.deepEqual([persona.behavior, persona.qa], ['comforting', [{ question_id: 'advice', answer: 'Be kind, and call your mother.' }]]);

    const start = page.getByRole('button', { name: 'Need 30s more' });
    assert.equal(await start.isDisabled(), true);

    await page.getByRole('checkbox', { name: /This is my own voice/ }).check();
    await page.getByLabel('Label (optional)').fill('Microphone take');
    // About three seconds from the fake microphone.
    const samples = card(page, 'Your voice samples');
    await samples.getByRole('button', { name: 'Record', exact: true }).click();
    await page.locator('.recorder__time', { hasText: /0:0[3-9]/ }).waitFor();
    await samples.getByRole('button', { name: 'Stop recording' }).click();
    await samples.getByRole('button', { name: 'Save recording' }).click();
    await toast(page, 'Sample added').waitFor();
    const take = page.getByRole('listitem', { name: 'Microphone take' });
    await take.waitFor();
    const measured = Number((await take.locator('.voice-sample__duration').textContent()).replace(' s', ''));
    assert.ok(measured >= 2.5 && measured <= 6, `the server measured the MediaRecorder WebM as ${measured} s`);
    const [sample] = (await api('GET', '/api/voice/samples', { token: acct.token })).json;
    assert.equal(sample.content_type, 'audio/webm');

    // Eight copies of the WAV at once: with the take, past 30 s.
    await page.getByLabel('Label (optional)').fill('');
    await page
      .getByLabel('Audio files')
      .setInputFiles(Array.from({ length: 8 }, (_, i) => ({ name: `reading-${i + 1}.wav`, mimeType: 'audio/wav', buffer: readSpeech() })));
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await toast(page, '8 samples added').waitFor();
    await page.getByRole('listitem', { name: 'reading-8.wav' }).getByText('3.7 s').waitFor();
    await assertNoSeriousAxeViolations(page, 'voice trainer with samples');

    await page.getByRole('button', { name: 'Start training' }).click();
    await toast(page, 'AI model training complete').waitFor();
    await card(page, 'Training').getByText('Complete').waitFor();
    await card(page, 'Training')
      .getByText(/\d+(\.\d)? Hz/)
      .waitFor();
    await screenshot(page, 'voice-trainer-complete');

    // Deleting a sample takes it off the list and out of the server's count.
    await page.getByRole('button', { name: 'Delete reading-1.wav' }).click();
    await toast(page, 'Sample deleted').waitFor();
    await page.getByRole('listitem', { name: 'reading-1.wav' }).waitFor({ state: 'detached' });
    assert.equal((await api('GET', '/api/voice/samples', { token: acct.token })).json.length, 8);
    // Message from the Beyond: a written answer, locked until release.
    const beyond = card(page, 'Message from the Beyond');
    await beyond.getByLabel('Question').fill('What should I do when I miss you?');
    await beyond.getByLabel('Your answer (optional if you record one)').fill('Go to the sea.');
    await beyond.getByRole('button', { name: 'Save answer' }).click();
    await toast(page, 'Answer saved').waitFor();
    await beyond.getByRole('listitem', { name: 'What should I do when I miss you?' }).getByText('Locked').waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
