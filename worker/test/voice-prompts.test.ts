import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { VOICE_ERRORS } from '../src/contracts/voice';
import { api, signedInUser } from './helpers/api';
import { fixture } from './helpers/voice';

/**
 * Message from the Beyond (POST /voice/prompt in docs/api.md): the owner answers a
 * question in writing, by recording, or both; locked ones are for after release. Stored, measured,
 * counted and erased like voice samples.
 */
function promptForm(fields: Record<string, string>, file?: Uint8Array) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([file]), 'answer.webm');
  return form;
}
const post = (token: string, form: FormData) => api('POST', '/api/voice/prompt', { token, body: form });

describe('leaving a Message from the Beyond (POST /api/voice/prompt)', () => {
  it('stores a written answer, and a recorded one measured by the server, locked or not', async () => {
    const owner = await signedInUser();
    const written = await post(owner.token, promptForm({ prompt: 'What should I do when I miss you?', response_text: ' Go to the sea. ', locked: 'true' }));
    expect(written.status).toBe(201);
    expect(written.data).toMatchObject({
      prompt: 'What should I do when I miss you?',
      response_text: 'Go to the sea.',
      has_audio: false,
      locked: true,
      size: 0,
    });

    const recorded = await post(owner.token, promptForm({ prompt: 'Happy birthday?', locked: 'false' }, fixture('speech.live.webm')));
    expect(recorded.status).toBe(201);
    expect(recorded.data).toMatchObject({ response_text: null, has_audio: true, content_type: 'audio/webm', locked: false });
    expect(Math.abs(recorded.data.duration_ms - 3713)).toBeLessThanOrEqual(50);
    expect((await api('GET', '/api/profile/storage', { token: owner.token })).data.used_bytes).toBe(fixture('speech.live.webm').length);

    const listed = await api('GET', '/api/voice/prompts', { token: owner.token });
    expect(listed.data.map((p: { id: string }) => p.id)).toEqual([written.data.id, recorded.data.id]);
  });

  it('refuses no prompt, no answer at all, and a recording that is not audio', async () => {
    const owner = await signedInUser();
    expect((await post(owner.token, promptForm({ response_text: 'x', locked: 'false' }))).status).toBe(422);
    const empty = await post(owner.token, promptForm({ prompt: 'Anything?', response_text: '  ', locked: 'false' }));
    expect(empty.status).toBe(422);
    expect(empty.data.detail[0].msg).toBe('Write an answer (response_text) or record one (file)');
    const notAudio = await post(owner.token, promptForm({ prompt: 'Anything?', locked: 'false' }, new TextEncoder().encode('%PDF-1.7')));
    expect(notAudio.status).toBe(415);
    expect(notAudio.data.detail).toBe(VOICE_ERRORS.unsupported);
    expect((await post(owner.token, promptForm({ prompt: 'Anything?', response_text: 'x', locked: 'maybe' }))).status).toBe(422);
    expect((await api('GET', '/api/voice/prompts', { token: owner.token })).data).toEqual([]);
  });

  it("is the owner's alone: an outsider's delete is a 404; the owner's removes the recording too", async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    const made = (await post(owner.token, promptForm({ prompt: 'Q', locked: 'true' }, fixture('tone.wav')))).data;
    expect((await api('GET', '/api/voice/prompts', { token: outsider.token })).data).toEqual([]);
    expect((await api('DELETE', `/api/voice/prompts/${made.id}`, { token: outsider.token })).status).toBe(404);
    const { k } = (await env.DB.prepare('SELECT r2_key AS k FROM voice_prompts WHERE id = ?').bind(made.id).first<{ k: string }>())!;
    expect(await env.BLOBS.head(k)).not.toBeNull();
    expect((await api('DELETE', `/api/voice/prompts/${made.id}`, { token: owner.token })).data).toEqual({ ok: true });
    expect(await env.BLOBS.head(k)).toBeNull();
  });

  it('needs the voice consent, and withdrawing it erases them with their recordings', async () => {
    const owner = await signedInUser();
    await post(owner.token, promptForm({ prompt: 'Q', locked: 'true' }, fixture('tone.wav')));
    const { k } = (await env.DB.prepare('SELECT r2_key AS k FROM voice_prompts WHERE owner_id = ?').bind(owner.id).first<{ k: string }>())!;
    await api('POST', '/api/legal/consent/voice', { token: owner.token, json: { consent: false } });
    expect((await api('GET', '/api/voice/prompts', { token: owner.token })).data).toEqual([]);
    expect(await env.BLOBS.head(k)).toBeNull();
    const refused = await post(owner.token, promptForm({ prompt: 'Q', response_text: 'A', locked: 'false' }));
    expect(refused.status).toBe(403);
    expect(refused.data.detail).toMatch(/^You withdrew your voice consent: no Message from the Beyond is stored/);
  });
});
