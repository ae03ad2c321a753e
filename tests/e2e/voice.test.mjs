// The Voice Trainer in Chromium with a fake microphone: the persona is set
// up with the seed questions; Chromium's
// MediaRecorder records espeak-ng speech from a WAV played as the microphone, the page uploads the WebM it
// made (no Duration element: the server reads the length from its blocks), several WAV files go up at
// once, and training runs through the Worker's real JOBS consumer until the page says it is complete.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { launchBrowser, newContext, screenshot } from '../support/browser.mjs';
import { d1Batch } from '../support/d1.mjs';
import { api, uniqueEmail } from '../support/http.mjs';
import { assertNoSeriousAxeViolations, card, eventually, h1, toast } from '../support/page.mjs';
import { accountWithToken, openSignedIn, signedInPage } from '../support/session.mjs';
import { stageWorker } from '../support/stage-worker.mjs';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'worker', 'test', 'fixtures', 'voice');
const SPEECH = join(fixtures, 'speech.wav'); // 3.713 s of espeak-ng speech
const readSpeech = () => readFileSync(SPEECH);

let browserStarting;
after(async () => {
  if (browserStarting) await (await browserStarting).close();
});
const getBrowser = () =>
  (browserStarting ??= launchBrowser([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-audio-capture=${SPEECH}`,
    // The reply's speech plays when it arrives, a moment after the click that asked.
    '--autoplay-policy=no-user-gesture-required',
  ]));

test('voice trainer: record with the microphone, upload several files, train to complete', async () => {
  const acct = await accountWithToken();
  const { page, context, errors } = await signedInPage(await getBrowser(), acct.token, '/app/voice-legacy', { permissions: ['microphone'], timeout: 60_000 });
  try {
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
    // The page decoded its WebM and sent the WAV rendition: the server measured the pitch on it.
    assert.ok(Math.abs(sample.analysed_seconds - measured) <= 0.3, `the rendition measured ${sample.analysed_seconds} s of ${measured} s`);

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

// Persona chat: the test sets the plan (voice minutes)
// and the owner's release in the stage Worker's D1 the way the billing and the guardian ladder would.
const getWorker = async () => stageWorker();

const person = () => accountWithToken({ email: uniqueEmail('persona') });

async function pageAs(token, path, { fakeRecognition = false } = {}) {
  const { origin } = await getWorker();
  const { context, errors } = await newContext(await getBrowser(), { baseURL: origin });
  context.setDefaultTimeout(60_000);
  await context.grantPermissions(['microphone']);
  // Chromium's speech recognition needs a network service: a stand-in that hears one sentence, so the
  // page's wiring (en-US, the transcript into the question box) is what is tested.
  if (fakeRecognition) {
    await context.addInitScript(() => {
      class FakeRecognition {
        lang = '';
        start() {
          window.__recognitionLang = this.lang;
          setTimeout(() => this.onresult?.({ results: [Object.assign([{ transcript: 'Do you have any advice for me' }], { isFinal: true })] }), 300);
        }
        stop() {
          this.onend?.();
        }
      }
      window.SpeechRecognition = FakeRecognition;
      window.webkitSpeechRecognition = FakeRecognition;
    });
  }
  const page = await context.newPage();
  await openSignedIn(page, token, path);
  return { context, page, errors };
}

/** Waits until the page's reply audio has actually played some of the WAV; resolves to its duration. */
async function heardReply(scope) {
  const audio = scope.getByLabel('The spoken reply');
  const state = await audio.evaluate(
    (el) =>
      new Promise((resolve) => {
        const report = () => ({
          played: el.currentTime > 0.2 || el.ended,
          currentTime: el.currentTime,
          paused: el.paused,
          readyState: el.readyState,
          error: el.error?.message ?? null,
          duration: el.duration,
        });
        const check = () => {
          if (el.currentTime > 0.2 || el.ended) resolve(report());
        };
        el.addEventListener('timeupdate', check);
        el.addEventListener('ended', check);
        el.addEventListener('error', () => resolve(report()));
        setTimeout(() => resolve(report()), 20_000);
        check();
      }),
  );
  assert.ok(state.played, `the reply audio played: ${JSON.stringify(state)}`);
  assert.match(await audio.getAttribute('src'), /^blob:/);
  return state.duration;
}

test('persona: the owner tries it and hears the reply, speaks a question, chooses a recipient who talks to it after release', {
  timeout: 180_000,
}, async () => {
  const [owner, recipient] = await Promise.all([person(), person()]);
  const { persistDir } = await getWorker();
  const now = Date.now();
  await d1Batch(persistDir, [
    `UPDATE users SET plan = 'plus', display_name = 'Ada' WHERE id = '${owner.user.id}'`,
    `INSERT INTO contacts (id, owner_id, email, contact_user_id, status, invited_at, responded_at) VALUES ('${randomUUID()}', '${owner.user.id}', '${recipient.email}', '${recipient.user.id}', 'accepted', ${now}, ${now})`,
  ]);
  const saved = await api('POST', '/api/ai/train-profile', {
    token: owner.token,
    body: {
      persona_text: 'I taught maths and loved the sea.',
      behavior: 'comforting',
      qa: [{ question_id: 'advice', answer: 'Be kind, and call your mother on Sundays.' }],
    },
  });
  assert.equal(saved.status, 200);

  // 1. Try a conversation on the Voice Trainer; sending empty does nothing.
  const o = await pageAs(owner.token, '/app/voice-legacy', { fakeRecognition: true });
  try {
    const tryCard = card(o.page, 'Try a conversation');
    await tryCard.getByText(/Reply engine:.*Local/).waitFor();
    await tryCard.getByRole('button', { name: 'Send' }).click();
    assert.equal(await tryCard.getByText('Ask a question to start the conversation.').isVisible(), true);
    await tryCard.getByLabel('Your question').fill('Do you have any advice for me?');
    await tryCard.getByRole('button', { name: 'Send' }).click();
    await tryCard.getByText('I left these words for moments like this: Be kind, and call your mother on Sundays. Be gentle with yourself.').waitFor();
    await tryCard.getByText('From their own words: Answer to “What advice would you give the people you love?”').waitFor();
    assert.ok((await heardReply(tryCard)) > 1, 'a spoken reply of more than a second');
    await tryCard.getByLabel('Your question').fill('Which football team do you support?');
    await tryCard.getByRole('button', { name: 'Send' }).click();
    await tryCard.getByText('Not from their own words: nothing they left answers this.').waitFor();

    // 2. Who may talk to it after release: the recipient, chosen among accepted contacts.
    const access = card(o.page, 'Who may talk to your persona');
    await access.getByRole('checkbox', { name: recipient.email }).check();
    await access.getByRole('button', { name: 'Save who may talk to it' }).click();
    await toast(o.page, 'Saved').waitFor();
    await assertNoSeriousAxeViolations(o.page, 'voice trainer with a conversation');

    // 3. Voice Chat by microphone: the fake microphone is recorded as audio/webm, the recognised words go in the box.
    await o.page.goto('/app/voice-chat');
    await h1(o.page, 'Voice Chat').waitFor();
    await o.page.getByRole('button', { name: 'Speak' }).click();
    await o.page.getByText('Listening…').waitFor();
    const box = o.page.getByLabel('Your question');
    await eventually(async () => (await box.inputValue()) === 'Do you have any advice for me', 'the recognised words in the box');
    await o.page.getByRole('button', { name: 'Stop' }).click();
    await o.page.getByLabel('Your spoken question').waitFor();
    assert.equal(await o.page.evaluate(() => window.__recognitionLang), 'en-US');
    await o.page.getByRole('button', { name: 'Send' }).click();
    await o.page.getByText('Be kind, and call your mother on Sundays.', { exact: false }).first().waitFor();
    await heardReply(o.page);
    await screenshot(o.page, 'voice-chat-owner');
    assert.deepEqual(o.errors, []);
  } finally {
    await o.context.close();
  }

  // 4. Before release the recipient has no persona to talk to, and the API answers 404.
  assert.equal((await api('POST', `/api/personas/${owner.user.id}/reply`, { token: recipient.token, body: { prompt: 'Any advice?' } })).status, 404);
  const r = await pageAs(recipient.token, '/app/voice-chat');
  try {
    await r.page.getByText('No persona to talk to').waitFor();
    // The owner's death is confirmed (as the guardian ladder records it): the persona opens to them.
    await d1Batch(persistDir, [`UPDATE users SET death_confirmed_at = ${Date.now()} WHERE id = '${owner.user.id}'`]);
    await r.page.reload();
    await card(r.page, 'Ada').waitFor();
    await r.page.getByText('This is a persona made from Ada’s own words').waitFor();
    await r.page.getByLabel('Your question').fill('Any advice?');
    await r.page.getByRole('button', { name: 'Send' }).click();
    await r.page.getByText('Be kind, and call your mother on Sundays.', { exact: false }).first().waitFor();
    await heardReply(r.page);
    await assertNoSeriousAxeViolations(r.page, 'voice chat as a recipient');
    // Retired for them: nothing answers them any more.
    await r.page.getByRole('button', { name: 'Retire for me' }).click();
    await r.page.getByRole('dialog').getByRole('button', { name: 'Retire for me' }).click();
    await toast(r.page, 'Persona retired').waitFor();
    await r.page.getByText('No persona to talk to').waitFor();
    assert.equal((await api('POST', `/api/personas/${owner.user.id}/reply`, { token: recipient.token, body: { prompt: 'Any advice?' } })).status, 404);
    assert.deepEqual(r.errors, []);
  } finally {
    await r.context.close();
  }
});
