import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { VOICE_ERRORS } from '../src/contracts/voice';
import { consumeBatch } from '../src/queues/consume';
import { api, signedInUser } from './helpers/api';
import { captureQueues } from './helpers/messages';
import { fixture, uploadSample, voiceLike } from './helpers/voice';
import { floatWav } from '../src/contracts/wav';

/**
 * Voice samples and the voice profile (docs/decisions/voice.md): the owner uploads recordings whose
 * type and length the server reads from the bytes, trains a profile through the real queue consumer,
 * and withdrawing the voice consent erases it all. Another person's sample is a 404.
 */
type Person = Awaited<ReturnType<typeof signedInUser>>;

const status = async (person: Person) => (await api('GET', '/api/voice/status', { token: person.token })).data;
const storageUsed = async (person: Person) => (await api('GET', '/api/profile/storage', { token: person.token })).data.used_bytes as number;
const objectExists = async (key: string) => (await env.BLOBS.head(key)) !== null;
const keysOf = async (person: Person) =>
  (await env.DB.prepare('SELECT r2_key FROM voice_samples WHERE owner_id = ?').bind(person.id).all<{ r2_key: string }>()).results.map((r) => r.r2_key);

/** Starts training and runs every job it queued through the real consumer, as the JOBS queue would. */
async function trainThroughQueue(person: Person) {
  const { result, jobs } = await captureQueues(() => api('POST', '/api/voice/train', { token: person.token }));
  const bodies = jobs.filter((j) => j.queue === 'JOBS').map((j) => j.body);
  const deliver = async () => {
    const batch = createMessageBatch(
      'afterword-jobs',
      bodies.map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body })),
    );
    await consumeBatch(batch, env);
    return getQueueResult(batch, createExecutionContext());
  };
  return { started: result, bodies, deliver };
}

/** 31 s of a 150 Hz voice-like tone at 4 bursts a second, as one WAV. */
const thirtyOneSeconds = () => floatWav(voiceLike(31, 150, 4), 8000);

describe('uploading a voice sample (POST /api/voice/upload)', () => {
  it.each([
    ['speech.wav', 'audio/wav', 'pcm_s16'],
    ['speech.opus.ogg', 'audio/ogg', 'opus'],
    ['speech.vorbis.ogg', 'audio/ogg', 'vorbis'],
    ['speech.live.webm', 'audio/webm', 'opus'],
  ])('stores %s as %s with the duration the server measured', async (name, type, codec) => {
    const owner = await signedInUser();
    const res = await uploadSample(owner.token, fixture(name), { name, label: 'Hello' });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ label: 'Hello', content_type: type, codec, size: fixture(name).length });
    expect(Math.abs(res.data.duration_ms - 3713)).toBeLessThanOrEqual(50);
    expect((await status(owner)).samples).toEqual([res.data]);
  });

  it('recognises the type by content and never reads a client-sent duration or type', async () => {
    const owner = await signedInUser();
    const form = new FormData();
    form.append('file', new Blob([fixture('tone.wav')], { type: 'audio/mpeg' }), 'song.mp3');
    form.append('consent', 'true');
    form.append('duration', '999');
    form.append('duration_ms', '999000');
    const res = await api('POST', '/api/voice/upload', { token: owner.token, body: form });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ content_type: 'audio/wav', duration_ms: 1500, label: 'song.mp3' });
  });

  it('refuses what is not WebM, Ogg or WAV audio with 415, and stores nothing', async () => {
    const owner = await signedInUser();
    for (const bytes of [new TextEncoder().encode('ID3\u0004 not an mp3 we accept'), new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])]) {
      const res = await uploadSample(owner.token, bytes, { type: 'audio/webm', name: 'take.webm' });
      expect(res.status).toBe(415);
      expect(res.data.detail).toBe(VOICE_ERRORS.unsupported);
    }
    expect(await keysOf(owner)).toEqual([]);
  });

  it('refuses audio it cannot measure, too short a take, a missing consent and a missing file with 422', async () => {
    const owner = await signedInUser();
    const cut = await uploadSample(owner.token, fixture('speech.webm').subarray(0, 60));
    expect(cut.status).toBe(422);
    expect(cut.data.detail[0].msg).toMatch(/could not be measured/);
    const short = await uploadSample(owner.token, floatWav(voiceLike(0.3, 150, 4), 8000));
    expect(short.status).toBe(422);
    expect(short.data.detail[0].msg).toBe(VOICE_ERRORS.tooShort);
    const noConsent = await uploadSample(owner.token, fixture('tone.wav'), { consent: 'false' });
    expect(noConsent.status).toBe(422);
    expect(noConsent.data.detail[0]).toMatchObject({ loc: ['body', 'consent'], msg: VOICE_ERRORS.consent });
    const form = new FormData();
    form.append('consent', 'true');
    expect((await api('POST', '/api/voice/upload', { token: owner.token, body: form })).status).toBe(422);
    expect(await keysOf(owner)).toEqual([]);
  });

  it('refuses a body past 20 MiB and the rendition’s allowance with 413 before reading it', async () => {
    const owner = await signedInUser();
    const res = await uploadSample(owner.token, new Uint8Array(23 * 1024 * 1024));
    expect(res.status).toBe(413);
  });

  it("counts samples in the plan's storage and refuses one past it with 403 and the upgrade hint", async () => {
    const owner = await signedInUser();
    const before = await storageUsed(owner);
    const sample = (await uploadSample(owner.token, fixture('tone.wav'))).data;
    expect(await storageUsed(owner)).toBe(before + sample.size);

    await env.DB.prepare(
      "INSERT INTO voice_samples (id, owner_id, r2_key, label, content_type, codec, size, duration_ms, consent_at, created_at) VALUES (?, ?, 'voice/none', 'big', 'audio/wav', 'pcm_s16', 999990000, 1000, 0, 0)",
    )
      .bind(crypto.randomUUID(), owner.id)
      .run();
    const res = await uploadSample(owner.token, fixture('tone.wav'));
    expect(res.status).toBe(403);
    expect(res.data.detail).toMatch(/Storage quota exceeded: the Free plan includes 1 GB.*Upgrade to Plus/);
    expect(await keysOf(owner)).toHaveLength(2);
  });

  it('needs a session', async () => {
    expect((await uploadSample('', fixture('tone.wav'))).status).toBe(401);
  });
});

describe('listing and deleting samples', () => {
  it("lists only the owner's samples, oldest first; an outsider's delete is a 404 that changes nothing", async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    const first = (await uploadSample(owner.token, fixture('tone.wav'), { label: 'First' })).data;
    const second = (await uploadSample(owner.token, fixture('speech.opus.ogg'), { label: 'Second' })).data;
    expect((await api('GET', '/api/voice/samples', { token: owner.token })).data.map((s: { label: string }) => s.label)).toEqual(['First', 'Second']);
    expect((await api('GET', '/api/voice/samples', { token: outsider.token })).data).toEqual([]);

    const stolen = await api('DELETE', `/api/voice/samples/${first.id}`, { token: outsider.token });
    expect(stolen.status).toBe(404);
    expect(stolen.data.detail).toBe('Voice sample not found');
    const [key] = await keysOf(owner);
    expect(await objectExists(key!)).toBe(true);

    const deleted = await api('DELETE', `/api/voice/samples/${first.id}`, { token: owner.token });
    expect(deleted).toMatchObject({ status: 200, data: { ok: true } });
    expect(await objectExists(key!)).toBe(false);
    expect((await status(owner)).samples.map((s: { id: string }) => s.id)).toEqual([second.id]);
    expect((await api('DELETE', `/api/voice/samples/${first.id}`, { token: owner.token })).status).toBe(404);
  });
});

describe('training the voice profile (POST /api/voice/train, GET /api/voice/status)', () => {
  it('starts not_started with the engine in use and refuses to train under 30 measured seconds with 409', async () => {
    const owner = await signedInUser();
    await uploadSample(owner.token, fixture('speech.wav'));
    expect(await status(owner)).toMatchObject({
      status: 'not_started',
      seconds_collected: 3.7,
      seconds_required: 30,
      engine: 'local',
      error: null,
      profile: null,
    });
    const res = await api('POST', '/api/voice/train', { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.data.detail).toBe('Training needs at least 30 s of voice samples; you have 3.7 s. Record 27 s more.');
    expect((await status(owner)).status).toBe('not_started');
  });

  it('runs as a queued job through the real consumer: processing, then complete with the measured pitch and rate', async () => {
    const owner = await signedInUser();
    await uploadSample(owner.token, thirtyOneSeconds(), { label: 'Long reading' });
    await uploadSample(owner.token, fixture('speech.opus.ogg'), { label: 'Opus hello' });

    const { started, bodies, deliver } = await trainThroughQueue(owner);
    expect(started.status).toBe(202);
    expect(started.data).toMatchObject({ status: 'processing', seconds_collected: 34.7, engine: 'local' });
    expect(bodies).toEqual([{ type: 'voice_training', user_id: owner.id, attempt_id: expect.any(String) }]);
    // A second click while it runs starts nothing.
    const again = await captureQueues(() => api('POST', '/api/voice/train', { token: owner.token }));
    expect(again.result.status).toBe(409);
    expect(again.result.data.detail).toBe('A training is already in progress: wait for it to finish');
    expect(again.jobs).toEqual([]);

    expect((await deliver()).explicitAcks).toEqual(['m0']);
    const done = await status(owner);
    expect(done).toMatchObject({ status: 'complete', error: null });
    // Pitch and rate come from the WAV only; the Opus sample's seconds still count.
    expect(Math.abs(done.profile.pitch_hz - 150)).toBeLessThan(5);
    expect(done.profile.syllables_per_second).toBeGreaterThan(4);
    expect(done.profile).toMatchObject({ seconds_used: 34.7, seconds_analysed: 31, sample_count: 2 });

    // Redelivered: the attempt is no longer processing, so nothing changes.
    await deliver();
    expect(await status(owner)).toEqual(done);
  });

  it('fails with a reason when the configured engine cannot run (elevenlabs without its key), and can be started again', async () => {
    const owner = await signedInUser();
    await uploadSample(owner.token, thirtyOneSeconds());
    const config = env as unknown as { VOICE_ENGINE?: string };
    const configured = config.VOICE_ENGINE;
    config.VOICE_ENGINE = 'elevenlabs';
    try {
      expect((await status(owner)).engine).toBe('elevenlabs');
      const { deliver } = await trainThroughQueue(owner);
      await deliver();
    } finally {
      config.VOICE_ENGINE = configured;
    }
    expect(await status(owner)).toMatchObject({
      status: 'failed',
      engine: 'elevenlabs',
      error:
        'The voice could not be cloned: ElevenLabs is the configured voice engine but this server has no ELEVENLABS_API_KEY. Start the training again later.',
      profile: null,
    });
    const { started, deliver } = await trainThroughQueue(owner);
    expect(started.data).toMatchObject({ status: 'processing', engine: 'local' });
    await deliver();
    expect((await status(owner)).status).toBe('complete');
  });

  it('measures pitch and rate of WebM and Ogg samples on the WAV rendition the browser decoded and sent with them', async () => {
    const owner = await signedInUser();
    // What the page sends: the recording as made, and its decoding to 16-bit mono 8 kHz (here a 240 Hz voice of the same length).
    const rendition = floatWav(voiceLike(3.713, 240, 4), 8000);
    const sent = async (name: string) => {
      const form = new FormData();
      form.append('file', new Blob([fixture(name)]), name);
      form.append('analysis_file', new Blob([rendition]), 'analysis.wav');
      form.append('consent', 'true');
      return api('POST', '/api/voice/upload', { token: owner.token, body: form });
    };
    const first = await sent('speech.opus.ogg');
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ content_type: 'audio/ogg', analysed_seconds: 3.7 });
    for (let i = 1; i < 9; i += 1) expect((await sent(i % 2 ? 'speech.live.webm' : 'speech.opus.ogg')).status).toBe(201);
    const { deliver } = await trainThroughQueue(owner);
    await deliver();
    const done = await status(owner);
    expect(done.status).toBe('complete');
    expect(Math.abs(done.profile.pitch_hz - 240) / 240).toBeLessThan(0.03);
    expect(done.profile.syllables_per_second).toBeGreaterThan(3);
    // Every second was analysed, though no sample is a WAV; the renditions were not stored.
    expect(done.profile).toMatchObject({ seconds_used: 33.4, seconds_analysed: 33.4, sample_count: 9 });
    expect((await keysOf(owner)).length).toBe(9);
  });

  it('refuses a rendition that is not the recording (422 naming analysis_file) and ignores one sent with a WAV', async () => {
    const owner = await signedInUser();
    const form = (file: string, analysis: Uint8Array) => {
      const f = new FormData();
      f.append('file', new Blob([fixture(file)]), file);
      f.append('analysis_file', new Blob([analysis]), 'analysis.wav');
      f.append('consent', 'true');
      return f;
    };
    const wrongLength = await api('POST', '/api/voice/upload', { token: owner.token, body: form('speech.opus.ogg', fixture('tone.wav')) });
    expect(wrongLength.status).toBe(422);
    expect(wrongLength.data.detail[0]).toMatchObject({ loc: ['body', 'analysis_file'] });
    expect(wrongLength.data.detail[0].msg).toBe('analysis_file must be this recording decoded as a WAV: it lasts 1.5 s, the recording 3.7 s');
    const notWav = await api('POST', '/api/voice/upload', { token: owner.token, body: form('speech.opus.ogg', fixture('speech.opus.ogg')) });
    expect(notWav.data.detail[0].msg).toBe('analysis_file must be this recording decoded as a WAV: it is not a PCM WAV');
    expect(await keysOf(owner)).toEqual([]);
    // A WAV is measured from its own bytes (at training): a rendition beside it changes nothing.
    const wav = await api('POST', '/api/voice/upload', { token: owner.token, body: form('speech.wav', fixture('tone.wav')) });
    expect(wav.data).toMatchObject({ content_type: 'audio/wav', analysed_seconds: null });
  });

  it('fails with a reason when samples were deleted below 30 s while the job waited', async () => {
    const owner = await signedInUser();
    const sample = (await uploadSample(owner.token, thirtyOneSeconds())).data;
    const { deliver } = await trainThroughQueue(owner);
    await api('DELETE', `/api/voice/samples/${sample.id}`, { token: owner.token });
    await deliver();
    expect(await status(owner)).toMatchObject({ status: 'failed', error: 'Samples were deleted while training: 0 s left of the 30 s needed' });
  });
});

describe('the voice consent', () => {
  it('refuses uploads and training while withdrawn, and withdrawing erases the profile and the recordings', async () => {
    const owner = await signedInUser();
    await uploadSample(owner.token, thirtyOneSeconds());
    const { deliver } = await trainThroughQueue(owner);
    await deliver();
    expect((await status(owner)).status).toBe('complete');
    const keys = await keysOf(owner);

    const withdrawn = await api('POST', '/api/legal/consent/voice', { token: owner.token, json: { consent: false } });
    expect(withdrawn.status).toBe(200);
    expect(await status(owner)).toMatchObject({ status: 'not_started', seconds_collected: 0, profile: null, samples: [] });
    for (const key of keys) expect(await objectExists(key)).toBe(false);

    const upload = await uploadSample(owner.token, fixture('tone.wav'));
    expect(upload.status).toBe(403);
    expect(upload.data.detail).toMatch(/^You withdrew your voice consent: no voice samples are stored\. Allow it again/);
    const train = await api('POST', '/api/voice/train', { token: owner.token });
    expect(train.status).toBe(403);
    expect(train.data.detail).toMatch(/^You withdrew your voice consent: no voice profile is trained/);

    await api('POST', '/api/legal/consent/voice', { token: owner.token, json: { consent: true } });
    // Nothing comes back by itself; new samples may be uploaded.
    expect((await status(owner)).samples).toEqual([]);
    expect((await uploadSample(owner.token, fixture('tone.wav'))).status).toBe(201);
  });

  it('a training job whose profile was erased meanwhile does nothing', async () => {
    const owner = await signedInUser();
    await uploadSample(owner.token, thirtyOneSeconds());
    const { deliver } = await trainThroughQueue(owner);
    await api('POST', '/api/legal/consent/voice', { token: owner.token, json: { consent: false } });
    expect((await deliver()).explicitAcks).toEqual(['m0']);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM voice_profiles WHERE user_id = ?').bind(owner.id).first('n')).toBe(0);
  });
});

describe('voice data in the export', () => {
  it("puts the samples' records, the profile and the recordings themselves in the owner's archive", async () => {
    const owner = await signedInUser();
    const wav = thirtyOneSeconds();
    await uploadSample(owner.token, wav, { label: 'Long reading' });
    const { deliver } = await trainThroughQueue(owner);
    await deliver();

    const res = await exports.default.fetch(new Request('http://afterword.test/api/legal/export', { headers: { authorization: `Bearer ${owner.token}` } }));
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const samples = JSON.parse(strFromU8(files['data/voice_samples.json']!));
    expect(samples).toHaveLength(1);
    expect(samples[0]).toMatchObject({ label: 'Long reading', duration_ms: 31000, content_type: 'audio/wav' });
    expect(JSON.parse(strFromU8(files['data/voice_profile.json']!))[0]).toMatchObject({ status: 'complete' });
    const recording = Object.keys(files).find((name) => name.startsWith('files/voice/'));
    expect(recording).toMatch(/^files\/voice\/[0-9a-f-]+-Long reading\.wav$/);
    expect(files[recording!]).toEqual(wav);
  });
});
