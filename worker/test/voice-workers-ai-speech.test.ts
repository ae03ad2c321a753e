import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkersAiBinding } from '../src/domains/voice/persona-engine/engines';
import { mp3Seconds } from '../src/domains/voice/persona-engine/speech';
import { transcribeWithWorkersAi, workersAiSynthesiser } from '../src/domains/voice/persona-engine/workers-ai-speech';
import { fromBase64, toBase64 } from '../src/lib/encoding';
import { api, signedInUser } from './helpers/api';
import { contactsOf } from './helpers/contacts';
import { confirmDeathDirectly } from './helpers/guardian';
import { fixture } from './helpers/voice';

/**
 * Workers AI speech (the `workers-ai` engine; docs/decisions/voice.md "Workers AI speech"):
 * MeloTTS speaks replies, Whisper hears a spoken question. The AI binding has no local simulation, so these
 * run against a recording fake binding that answers as the models document (`{audio}` base64 MP3, `{text}`).
 */
type Person = Awaited<ReturnType<typeof signedInUser>>;
const SPEECH_SECONDS = 3.713; // what sox measures of the espeak-ng sentence the MP3 fixtures encode

/** A fake AI binding: records every call; MeloTTS answers the MP3 fixture, Whisper the sentence, the LLM a line. */
function recordingAi(answers: { tts?: unknown; stt?: unknown } = {}) {
  const calls: { model: string; input: Record<string, unknown> }[] = [];
  const ai: WorkersAiBinding = {
    async run(model, input) {
      calls.push({ model, input: input as unknown as Record<string, unknown> });
      if (model === '@cf/myshell-ai/melotts') return answers.tts ?? { audio: toBase64(fixture('speech.mp3')) };
      if (model === '@cf/openai/whisper') {
        if (answers.stt instanceof Error) throw answers.stt;
        return answers.stt ?? { text: ' Do you have any advice for me? ', word_count: 7 };
      }
      return { response: 'Be kind, and call your mother on Sundays.' };
    },
  };
  return { ai, calls };
}

const config = env as unknown as Record<string, unknown>;
const saved = { VOICE_ENGINE: config.VOICE_ENGINE, AI: config.AI };
afterEach(() => Object.assign(config, saved));

async function personaOf(owner: Person) {
  await api('POST', '/api/ai/train-profile', {
    token: owner.token,
    json: { persona_text: 'I loved the sea.', behavior: 'neutral', qa: [{ question_id: 'advice', answer: 'Be kind, and call your mother on Sundays.' }] },
  });
  await env.DB.prepare("UPDATE users SET plan = 'plus' WHERE id = ?1").bind(owner.id).run();
}

const transcribe = (who: Person, owner: Person, bytes: Uint8Array, name = 'question.webm') => {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'audio/webm' }), name);
  return api('POST', `/api/personas/${owner.id}/transcribe`, { token: who.token, body: form });
};

describe('the length of an MP3, counted from its frames', () => {
  it('measures MPEG-2 at 22.05 kHz and MPEG-1 at 44.1 kHz behind an ID3 tag, never less than the speech and within 80 ms of it', () => {
    for (const name of ['speech.mp3', 'speech.44k.mp3']) {
      const seconds = mp3Seconds(fixture(name))!;
      // The encoder's delay and padding are frames the player plays: counted, as the listener hears them.
      expect(seconds, name).toBeGreaterThanOrEqual(SPEECH_SECONDS);
      expect(seconds - SPEECH_SECONDS, name).toBeLessThan(0.08);
    }
  });

  it('finds nothing in what is not an MP3, and does not count a truncated last frame', () => {
    expect(mp3Seconds(fixture('speech.wav'))).toBeNull();
    expect(mp3Seconds(new Uint8Array(0))).toBeNull();
    const whole = fixture('speech.44k.mp3');
    expect(mp3Seconds(whole.slice(0, whole.length - 100))!).toBeCloseTo(mp3Seconds(whole)! - 1152 / 44100, 5);
  });
});

describe('MeloTTS speaks the reply (recording fake binding)', () => {
  it('asks @cf/myshell-ai/melotts with {prompt, lang} and answers the MP3 with its seconds', async () => {
    const { ai, calls } = recordingAi();
    const speech = await workersAiSynthesiser(ai).synthesize('Be kind.', { pitch_hz: null, syllables_per_second: null });
    expect(calls).toEqual([{ model: '@cf/myshell-ai/melotts', input: { prompt: 'Be kind.', lang: 'en' } }]);
    expect(speech.contentType).toBe('audio/mpeg');
    expect(speech.audio).toEqual(fixture('speech.mp3'));
    expect(speech.seconds).toBe(mp3Seconds(fixture('speech.mp3')));
  });

  it('takes raw bytes too (the binding’s other documented answer), and refuses an answer without audio', async () => {
    expect(
      (await workersAiSynthesiser(recordingAi({ tts: fixture('speech.44k.mp3') }).ai).synthesize('Hi.', { pitch_hz: null, syllables_per_second: null }))
        .seconds,
    ).toBe(mp3Seconds(fixture('speech.44k.mp3')));
    await expect(
      workersAiSynthesiser(recordingAi({ tts: { audio: '' } }).ai).synthesize('Hi.', { pitch_hz: null, syllables_per_second: null }),
    ).rejects.toThrow('Workers AI answered without MP3 audio');
  });

  it('the owner hears the reply as an MP3 with VOICE_ENGINE=workers-ai, counted in the session’s minutes', async () => {
    const owner = await signedInUser();
    await personaOf(owner);
    const { ai, calls } = recordingAi();
    Object.assign(config, { VOICE_ENGINE: 'workers-ai', AI: ai });
    const res = await api('POST', '/api/voice/simulate-response', { token: owner.token, json: { prompt: 'Any advice?' } });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ engine: 'workers-ai', source: 'ai_worded', audio_content_type: 'audio/mpeg', notice: null });
    expect(fromBase64(res.data.audio_base64)).toEqual(fixture('speech.mp3'));
    expect(res.data.audio_seconds).toBeCloseTo(Math.ceil(mp3Seconds(fixture('speech.mp3'))! * 1000) / 1000, 3);
    expect(calls.map((c) => c.model)).toEqual(['@cf/meta/llama-3.1-8b-instruct', '@cf/myshell-ai/melotts']);
    expect(calls[1]!.input.prompt).toBe(res.data.text);
  });
});

describe('Whisper hears a spoken question (POST /api/personas/{id}/transcribe)', () => {
  it('asks @cf/openai/whisper with the recording’s bytes as numbers and answers its words', async () => {
    const { ai, calls } = recordingAi();
    const recording = fixture('speech.live.webm');
    expect(await transcribeWithWorkersAi(ai, recording)).toBe('Do you have any advice for me?');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.model).toBe('@cf/openai/whisper');
    expect(calls[0]!.input.audio).toEqual([...recording]);
  });

  it('the owner and, after release, a chosen recipient get the words; an outsider 404 whatever they send', async () => {
    const [owner, recipient, outsider] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    await personaOf(owner);
    await contactsOf(owner, recipient);
    await api('PUT', '/api/ai/persona-access', { token: owner.token, json: { recipient_ids: [recipient.id], keeper_id: null } });
    const { ai, calls } = recordingAi();
    Object.assign(config, { VOICE_ENGINE: 'workers-ai', AI: ai });
    const webm = fixture('speech.live.webm');

    const own = await transcribe(owner, owner, webm);
    expect(own.status).toBe(200);
    expect(own.data).toEqual({ text: 'Do you have any advice for me?' });
    // Before release the recipient is refused as an outsider is, and the model is not asked.
    expect((await transcribe(recipient, owner, webm)).status).toBe(404);
    expect((await transcribe(outsider, owner, new TextEncoder().encode('not audio'))).status).toBe(404);
    expect(calls).toHaveLength(1);

    await confirmDeathDirectly(owner.id, Date.now());
    expect((await transcribe(recipient, owner, webm)).data).toEqual({ text: 'Do you have any advice for me?' });
  });

  it('refuses what is not audio (415), a missing file (422) and over 2 MiB (413); another engine is 501; a failing model answers empty text', async () => {
    const owner = await signedInUser();
    await personaOf(owner);
    const notAudio = await transcribe(owner, owner, new TextEncoder().encode('ID3 an mp3 is not a recording the browser makes'));
    expect(notAudio.status).toBe(501); // the local engine: no speech to text at all
    expect(notAudio.data.detail).toBe('Speech to text on the server comes with the Workers AI engine; this server uses the local engine: type your question');

    Object.assign(config, { VOICE_ENGINE: 'workers-ai', AI: recordingAi({ stt: new Error('model overloaded') }).ai });
    expect((await transcribe(owner, owner, new TextEncoder().encode('just text'))).status).toBe(415);
    const empty = await api('POST', `/api/personas/${owner.id}/transcribe`, { token: owner.token, body: new FormData() });
    expect(empty.status).toBe(422);
    expect(empty.data.detail[0].loc).toEqual(['body', 'file']);
    expect((await transcribe(owner, owner, new Uint8Array(3 * 1024 * 1024))).status).toBe(413);
    const failed = await transcribe(owner, owner, fixture('speech.opus.ogg'), 'q.ogg');
    expect(failed.status).toBe(200);
    expect(failed.data).toEqual({ text: '' });
  });
});
