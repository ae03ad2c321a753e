import { describe, expect, it } from 'vitest';
import { SEED_QUESTIONS } from '../src/contracts/persona';
import { api, signedInUser } from './helpers/api';

/** The persona (POST /api/ai/train-profile): the owner's own words, tone and answers. */
const save = (token: string, json: unknown) => api('POST', '/api/ai/train-profile', { token, json });

describe('setting up the persona (POST /api/ai/train-profile, GET /api/ai/profile)', () => {
  it('starts empty and neutral, then keeps what the owner saved, replacing it as a whole', async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    expect((await api('GET', '/api/ai/profile', { token: owner.token })).data).toEqual({
      persona_text: '',
      behavior: 'neutral',
      qa: [],
      answered: 0,
      updated_at: null,
    });
    const saved = await save(owner.token, {
      persona_text: '  I am Ada, a retired teacher who loves the sea.  ',
      behavior: 'comforting',
      qa: [
        { question_id: 'advice', answer: 'Be kind, and call your mother.' },
        { question_id: 'laugh', answer: '   ' },
      ],
    });
    expect(saved.status).toBe(200);
    expect(saved.data).toMatchObject({
      persona_text: 'I am Ada, a retired teacher who loves the sea.',
      behavior: 'comforting',
      qa: [{ question_id: 'advice', answer: 'Be kind, and call your mother.' }],
      answered: 1,
    });
    expect((await api('GET', '/api/ai/profile', { token: owner.token })).data).toEqual(saved.data);
    // Another person's persona is their own.
    expect((await api('GET', '/api/ai/profile', { token: outsider.token })).data.answered).toBe(0);

    const all = SEED_QUESTIONS.map((q) => ({ question_id: q.id, answer: `About ${q.id}` }));
    const replaced = await save(owner.token, { persona_text: '', behavior: 'playful', qa: all });
    expect(replaced.data).toMatchObject({ persona_text: '', behavior: 'playful', answered: 10 });
  });

  it('refuses a bad tone, an unknown or repeated question and too long a text with 422, keeping what was there', async () => {
    const owner = await signedInUser();
    await save(owner.token, { persona_text: 'Kept', behavior: 'wise', qa: [] });
    const cases = [
      { persona_text: '', behavior: 'sarcastic', qa: [] },
      { persona_text: '', behavior: 'wise', qa: [{ question_id: 'favourite_colour', answer: 'blue' }] },
      {
        persona_text: '',
        behavior: 'wise',
        qa: [
          { question_id: 'advice', answer: 'a' },
          { question_id: 'advice', answer: 'b' },
        ],
      },
      { persona_text: 'x'.repeat(5001), behavior: 'wise', qa: [] },
    ];
    for (const body of cases) {
      const res = await save(owner.token, body);
      expect(res.status).toBe(422);
      expect(res.data.detail[0].loc[0]).toBe('body');
    }
    expect((await api('GET', '/api/ai/profile', { token: owner.token })).data).toMatchObject({ persona_text: 'Kept', behavior: 'wise' });
  });

  it('needs the voice consent, and withdrawing it erases the persona', async () => {
    const owner = await signedInUser();
    await save(owner.token, { persona_text: 'Ada', behavior: 'wise', qa: [{ question_id: 'proudest', answer: 'My students' }] });
    await api('POST', '/api/legal/consent/voice', { token: owner.token, json: { consent: false } });
    expect((await api('GET', '/api/ai/profile', { token: owner.token })).data).toMatchObject({ persona_text: '', answered: 0, updated_at: null });
    const refused = await save(owner.token, { persona_text: 'Ada', behavior: 'wise', qa: [] });
    expect(refused.status).toBe(403);
    expect(refused.data.detail).toMatch(/^You withdrew your voice consent: no persona is built/);
  });
});
