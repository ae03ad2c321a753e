import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { deleteAccount } from '../src/domains/account/delete-account';
import { SPEECH_FAILED_NOTICE } from '../src/domains/voice/persona-chat';
import { createServiceContext } from '../src/wiring/service-context';
import { fromBase64 } from '../src/lib/encoding';
import { consumeBatch } from '../src/queues/consume';
import { api, signedInUser } from './helpers/api';
import { contactsOf } from './helpers/contacts';
import { confirmDeathDirectly } from './helpers/guardian';
import { captureQueues } from './helpers/messages';
import { fixture, uploadSample, voiceLike } from './helpers/voice';
import { floatWav } from '../src/contracts/wav';
import { PEER_SECONDS_PER_CHARACTER, type RecordedElevenLabsCall } from './peers/elevenlabs';

/**
 * The `elevenlabs` voice engine (docs/decisions/voice.md "ElevenLabs") against a local
 * peer that speaks ElevenLabs' API (test/peers/elevenlabs.ts): training clones the owner's voice from the
 * exact bytes of their samples, the persona speaks in it, and every way the profile goes deletes the voice
 * at ElevenLabs too — without ever waiting on it.
 */
type Person = Awaited<ReturnType<typeof signedInUser>>;
const peer = inject('elevenLabsPeer');
const config = env as unknown as Record<string, string | undefined>;
const CONFIG_KEYS = ['VOICE_ENGINE', 'ELEVENLABS_API_KEY', 'ELEVENLABS_API_BASE'] as const;
let saved: Record<string, string | undefined> = {};
let key = '';

/** Each test is its own ElevenLabs account (the peer keeps state per key). */
beforeEach(() => {
  saved = Object.fromEntries(CONFIG_KEYS.map((k) => [k, config[k]]));
  key = `sk_${crypto.randomUUID().replaceAll('-', '')}`;
  Object.assign(config, { VOICE_ENGINE: 'elevenlabs', ELEVENLABS_API_KEY: key, ELEVENLABS_API_BASE: peer.baseUrl });
});
afterEach(() => {
  Object.assign(config, saved);
});

const calls = async (): Promise<RecordedElevenLabsCall[]> => (await fetch(`${peer.baseUrl}/__calls?key=${key}`)).json();
const voicesAtPeer = async (): Promise<string[]> => (await fetch(`${peer.baseUrl}/__voices?key=${key}`)).json();
const failNext = (status: number, message: string, times = 1) =>
  fetch(`${peer.baseUrl}/__fail?key=${key}`, { method: 'POST', body: JSON.stringify({ status, message, times }) });
const sha256 = async (bytes: Uint8Array) =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');

const status = async (person: Person) => (await api('GET', '/api/voice/status', { token: person.token })).data;
const providerVoiceOf = async (person: Person) =>
  (await env.DB.prepare('SELECT provider_voice_id FROM voice_profiles WHERE user_id = ?1').bind(person.id).first<{ provider_voice_id: string | null }>())
    ?.provider_voice_id ?? null;

/** Runs queued JOBS bodies through the real consumer, as the JOBS queue would. */
async function deliver(bodies: Record<string, unknown>[]) {
  const batch = createMessageBatch(
    'afterword-jobs',
    bodies.map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body })),
  );
  await consumeBatch(batch, env);
  return getQueueResult(batch, createExecutionContext());
}

async function train(person: Person) {
  const { result, jobs } = await captureQueues(() => api('POST', '/api/voice/train', { token: person.token }));
  expect(result.status).toBe(202);
  await deliver(jobs.filter((j) => j.queue === 'JOBS').map((j) => j.body));
  return status(person);
}

async function personaOf(owner: Person) {
  const res = await api('POST', '/api/ai/train-profile', {
    token: owner.token,
    json: { persona_text: 'I taught maths and loved the sea.', behavior: 'neutral', qa: [{ question_id: 'advice', answer: 'Be kind.' }] },
  });
  expect(res.status).toBe(200);
  await env.DB.prepare("UPDATE users SET plan = 'plus' WHERE id = ?1").bind(owner.id).run();
}

/** An owner with two samples uploaded (31 s of WAV and an Ogg Opus take), trained at the peer. */
async function ownerWithClonedVoice() {
  const owner = await signedInUser();
  const wav = floatWav(voiceLike(31, 150, 4), 8000);
  const ogg = fixture('speech.opus.ogg');
  await uploadSample(owner.token, wav, { label: 'Reading a poem by my window' });
  await uploadSample(owner.token, ogg, { label: 'Hello' });
  const trained = await train(owner);
  return { owner, wav, ogg, trained };
}

describe('training with the elevenlabs engine', () => {
  it('clones the owner’s voice at ElevenLabs from the exact bytes of their samples, and keeps the voice id', async () => {
    const { owner, wav, ogg, trained } = await ownerWithClonedVoice();
    expect(trained).toMatchObject({ status: 'complete', engine: 'elevenlabs', error: null });
    // Pitch and rate are still measured on the WAV (the fallback voice and the page use them).
    expect(Math.abs(trained.profile.pitch_hz - 150)).toBeLessThan(5);

    const [add] = await calls();
    expect(add).toMatchObject({ method: 'POST', path: '/v1/voices/add' });
    expect(add!.files).toEqual([
      { filename: 'sample-1.wav', type: 'audio/wav', size: wav.length, sha256: await sha256(wav) },
      { filename: 'sample-2.ogg', type: 'audio/ogg', size: ogg.length, sha256: await sha256(ogg) },
    ]);
    // Nothing that names the person goes to the provider: no email, no label.
    expect(add!.fields!.name).toBe(`Afterword ${owner.id.slice(0, 8)}`);
    expect(JSON.stringify(add)).not.toContain(owner.email);
    expect(JSON.stringify(add)).not.toContain('Reading a poem');
    const voiceId = await providerVoiceOf(owner);
    expect(await voicesAtPeer()).toEqual([voiceId]);
  });

  it('training again replaces the cloned voice and deletes the old one at ElevenLabs', async () => {
    const { owner } = await ownerWithClonedVoice();
    const first = await providerVoiceOf(owner);
    expect((await train(owner)).status).toBe('complete');
    const second = await providerVoiceOf(owner);
    expect(second).not.toBe(first);
    expect(await voicesAtPeer()).toEqual([second]);
    expect((await calls()).filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/v1/voices/${first}`]);
  });

  it('fails with the provider’s reason when ElevenLabs refuses, and with a plain one when it cannot be reached', async () => {
    const logged: string[] = [];
    for (const level of ['log', 'info', 'warn', 'error'] as const) vi.spyOn(console, level).mockImplementation((...args) => void logged.push(args.join(' ')));
    const owner = await signedInUser();
    await uploadSample(owner.token, floatWav(voiceLike(31, 150, 4), 8000));

    config.ELEVENLABS_API_KEY = 'not-a-key';
    expect(await train(owner)).toMatchObject({
      status: 'failed',
      error: 'The voice could not be cloned: ElevenLabs answered 401: Invalid API key. Start the training again later.',
      profile: null,
    });

    config.ELEVENLABS_API_KEY = key;
    await failNext(503, 'The service is busy, please try again later.');
    expect((await train(owner)).error).toBe(
      'The voice could not be cloned: ElevenLabs answered 503: The service is busy, please try again later. Start the training again later.',
    );

    config.ELEVENLABS_API_BASE = 'http://127.0.0.1:9';
    expect((await train(owner)).error).toBe('The voice could not be cloned: ElevenLabs could not be reached. Start the training again later.');

    config.ELEVENLABS_API_KEY = '';
    expect((await train(owner)).error).toBe(
      'The voice could not be cloned: ElevenLabs is the configured voice engine but this server has no ELEVENLABS_API_KEY. Start the training again later.',
    );
    expect(await providerVoiceOf(owner)).toBeNull();
    // The API key is a secret: never in a log line, whatever happened.
    expect(logged.some((line) => line.includes('elevenlabs'))).toBe(true);
    expect(logged.filter((line) => line.includes(key) || line.includes('not-a-key'))).toEqual([]);
    vi.restoreAllMocks();
  });
});

describe('the persona speaks in the cloned voice', () => {
  it('the owner hears a WAV made from ElevenLabs’ PCM, and its seconds are counted from the samples returned', async () => {
    const { owner } = await ownerWithClonedVoice();
    await personaOf(owner);
    const res = await api('POST', '/api/voice/simulate-response', { token: owner.token, json: { prompt: 'Any advice?' } });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ engine: 'local', source: 'own_words', audio_content_type: 'audio/wav', notice: null });
    const tts = (await calls()).filter((c) => c.path.startsWith('/v1/text-to-speech/'));
    expect(tts).toEqual([
      expect.objectContaining({
        path: `/v1/text-to-speech/${await providerVoiceOf(owner)}`,
        query: { output_format: 'pcm_22050' },
        json: { text: res.data.text, model_id: 'eleven_multilingual_v2' },
      }),
    ]);
    const wav = fromBase64(res.data.audio_base64)!;
    expect(String.fromCharCode(...wav.slice(0, 4), ...wav.slice(8, 12))).toBe('RIFFWAVE');
    const view = new DataView(wav.buffer, wav.byteOffset);
    expect([view.getUint32(24, true), view.getUint16(34, true)]).toEqual([22050, 16]);
    const seconds = Math.round(res.data.text.length * PEER_SECONDS_PER_CHARACTER * 22050) / 22050;
    expect(view.getUint32(40, true)).toBe(Math.round(seconds * 22050) * 2);
    expect(res.data.audio_seconds).toBeCloseTo(Math.ceil(seconds * 1000) / 1000, 3);
    expect(res.data.voice_seconds_left).toBeCloseTo(300 - res.data.audio_seconds, 3);
  });

  it('a recipient after the owner’s death hears the same voice; an outsider gets 404 and ElevenLabs is not asked', async () => {
    const { owner } = await ownerWithClonedVoice();
    await personaOf(owner);
    const [recipient, outsider] = await Promise.all([signedInUser(), signedInUser()]);
    await contactsOf(owner, recipient);
    await api('PUT', '/api/ai/persona-access', { token: owner.token, json: { recipient_ids: [recipient.id], keeper_id: null } });
    await confirmDeathDirectly(owner.id, Date.now());
    const before = (await calls()).length;
    expect((await api('POST', `/api/personas/${owner.id}/reply`, { token: outsider.token, json: { prompt: 'Any advice?' } })).status).toBe(404);
    expect((await calls()).length).toBe(before);
    const heard = await api('POST', `/api/personas/${owner.id}/reply`, { token: recipient.token, json: { prompt: 'Any advice?' } });
    expect(heard.data).toMatchObject({ audio_content_type: 'audio/wav', notice: null });
    expect(heard.data.audio_seconds).toBeGreaterThan(1);
  });

  it('when ElevenLabs fails, the reply comes as text with a notice (never a 500) and no seconds are counted', async () => {
    const { owner } = await ownerWithClonedVoice();
    await personaOf(owner);
    await failNext(429, 'Too many concurrent requests.');
    const res = await api('POST', '/api/voice/simulate-response', { token: owner.token, json: { prompt: 'Any advice?' } });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ audio_base64: '', audio_content_type: null, audio_seconds: 0, voice_seconds_left: 300, notice: SPEECH_FAILED_NOTICE });
    expect(res.data.text).toContain('Be kind.');
  });

  it('before a voice is cloned the persona speaks with the local synthesiser, and ElevenLabs is not asked', async () => {
    const owner = await signedInUser();
    await personaOf(owner);
    const res = await api('POST', '/api/voice/simulate-response', { token: owner.token, json: { prompt: 'Any advice?' } });
    expect(res.data).toMatchObject({ audio_content_type: 'audio/wav', notice: null });
    expect(await calls()).toEqual([]);
  });
});

describe('the cloned voice goes with the profile', () => {
  const deletes = async () => (await calls()).filter((c) => c.method === 'DELETE').map((c) => c.path);

  it('withdrawing the voice consent deletes it at ElevenLabs', async () => {
    const { owner } = await ownerWithClonedVoice();
    const voiceId = await providerVoiceOf(owner);
    expect((await api('POST', '/api/legal/consent/voice', { token: owner.token, json: { consent: false } })).status).toBe(200);
    expect(await deletes()).toEqual([`/v1/voices/${voiceId}`]);
    expect(await voicesAtPeer()).toEqual([]);
  });

  it('the owner retiring the persona for everyone deletes it at ElevenLabs', async () => {
    const { owner } = await ownerWithClonedVoice();
    await personaOf(owner);
    const voiceId = await providerVoiceOf(owner);
    expect((await api('POST', `/api/personas/${owner.id}/retire`, { token: owner.token, json: { for: 'everyone' } })).status).toBe(200);
    expect(await deletes()).toEqual([`/v1/voices/${voiceId}`]);
    expect(await voicesAtPeer()).toEqual([]);
  });

  it('account deletion deletes it at ElevenLabs', async () => {
    const { owner } = await ownerWithClonedVoice();
    const voiceId = await providerVoiceOf(owner);
    await deleteAccount(createServiceContext(env), owner.id);
    expect(await deletes()).toEqual([`/v1/voices/${voiceId}`]);
    expect(await voicesAtPeer()).toEqual([]);
  });

  it('when ElevenLabs cannot be reached the local erasure still completes, and a queued job deletes the voice later', async () => {
    const { owner } = await ownerWithClonedVoice();
    const voiceId = await providerVoiceOf(owner);
    config.ELEVENLABS_API_BASE = 'http://127.0.0.1:9';
    const { result, jobs } = await captureQueues(() => api('POST', '/api/legal/consent/voice', { token: owner.token, json: { consent: false } }));
    expect(result.status).toBe(200);
    expect(await status(owner)).toMatchObject({ status: 'not_started', samples: [] });
    expect(jobs).toEqual([{ queue: 'JOBS', body: { type: 'cloned_voice_delete', voice_id: voiceId }, delaySeconds: undefined }]);
    expect(await voicesAtPeer()).toEqual([voiceId]);

    // Still unreachable: the job asks to be retried.
    expect((await deliver([jobs[0]!.body])).retryMessages).toEqual([{ msgId: 'm0' }]);
    // Reachable again: deleted, and a redelivery finds it gone and is done too.
    config.ELEVENLABS_API_BASE = peer.baseUrl;
    expect((await deliver([jobs[0]!.body])).explicitAcks).toEqual(['m0']);
    expect(await voicesAtPeer()).toEqual([]);
    expect((await deliver([jobs[0]!.body])).explicitAcks).toEqual(['m0']);
  });
});
