import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { advanceMessage } from '../src/domains/messages/release/advance-message';
import { armOnMissedCheckins } from '../src/domains/messages/release/arm-on-missed-checkins';
import { simulateResponse } from '../src/domains/voice/persona-chat';
import { createServiceContext } from '../src/wiring/service-context';
import { fromBase64 } from '../src/lib/encoding';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor, servicesAt } from './helpers/canary';
import { contactsOf } from './helpers/contacts';
import { confirmDeathDirectly } from './helpers/guardian';
import { captureQueues, createMessageFor, messageRow } from './helpers/messages';

/**
 * Talking to a persona: the owner tries it, recipients they chose talk to it
 * only after the owner's release, and retirement silences it (docs/decisions/voice.md "Who may talk to the persona").
 */
type Person = Awaited<ReturnType<typeof signedInUser>>;
const DAY = 24 * 60 * 60 * 1000;

async function personaOf(owner: Person, behavior = 'comforting') {
  const res = await api('POST', '/api/ai/train-profile', {
    token: owner.token,
    json: {
      persona_text: 'I taught maths for thirty years and loved the sea.',
      behavior,
      qa: [
        { question_id: 'advice', answer: 'Be kind, and call your mother on Sundays.' },
        { question_id: 'places', answer: 'The harbour at Whitby, where we ate chips in the rain.' },
      ],
    },
  });
  expect(res.status).toBe(200);
}
const simulate = (who: Person, json: unknown) => api('POST', '/api/voice/simulate-response', { token: who.token, json });
const ask = (who: Person, owner: Person, prompt: string, session_id?: string) =>
  api('POST', `/api/personas/${owner.id}/reply`, { token: who.token, json: { prompt, session_id } });
const setPlan = (who: Person, plan: string) => env.DB.prepare('UPDATE users SET plan = ?2 WHERE id = ?1').bind(who.id, plan).run();

/** The owner, a recipient they chose (an accepted contact), a keeper, and an outsider. */
async function family() {
  const [owner, recipient, keeper, outsider] = await Promise.all([signedInUser(), signedInUser(), signedInUser(), signedInUser()]);
  await personaOf(owner);
  await contactsOf(owner, recipient);
  await contactsOf(owner, keeper);
  const access = await api('PUT', '/api/ai/persona-access', { token: owner.token, json: { recipient_ids: [recipient.id], keeper_id: keeper.id } });
  expect(access.status).toBe(200);
  return { owner, recipient, keeper, outsider };
}

describe('the owner tries their persona (POST /api/voice/simulate-response)', () => {
  it('answers a seed question with the owner’s own answer, spoken as a WAV', async () => {
    const owner = await signedInUser();
    await personaOf(owner);
    await setPlan(owner, 'plus');
    const res = await simulate(owner, { prompt: 'Do you have any advice for me?' });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      text: 'I left these words for moments like this: Be kind, and call your mother on Sundays. Be gentle with yourself.',
      source: 'own_words',
      based_on: ['Answer to “What advice would you give the people you love?”'],
      engine: 'local',
      notice: null,
    });
    const wav = fromBase64(res.data.audio_base64)!;
    expect(String.fromCharCode(...wav.slice(0, 4), ...wav.slice(8, 12))).toBe('RIFFWAVE');
    expect(res.data.audio_seconds).toBeGreaterThan(1);
    expect(res.data.voice_seconds_left).toBeCloseTo(300 - res.data.audio_seconds, 2);
  });

  it('changes the wording with the tone, and says when the answer is not the person’s own words', async () => {
    const owner = await signedInUser();
    await personaOf(owner, 'playful');
    const playful = (await simulate(owner, { prompt: 'Any advice?' })).data.text;
    await personaOf(owner, 'wise');
    const wise = (await simulate(owner, { prompt: 'Any advice?' })).data.text;
    expect(playful).toBe('Ha, good one! Here is what I wrote: Be kind, and call your mother on Sundays. Now go and do something fun with that.');
    expect(wise).toBe('Here is what I came to believe, in my own words: Be kind, and call your mother on Sundays. Take from it what serves you.');
    const none = await simulate(owner, { prompt: 'Which football team do you support?' });
    expect(none.data.source).toBe('no_match');
    expect(none.data.text).toMatch(/^Not every question has an answer I left behind\. I never wrote about that, so this reply is not from my own words\./);
  });

  it('answers from the owner’s own lines in an imported chat, matched by what they answered', async () => {
    const owner = await signedInUser();
    await personaOf(owner, 'neutral');
    const importId = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO chat_imports (id, owner_id, status, format, file_name, size, created_at) VALUES (?1, ?2, 'complete', 'plain', 'chat.json', 100, ?3)",
      ).bind(importId, owner.id, Date.now()),
      env.DB.prepare('INSERT INTO persona_chat_lines (import_id, owner_id, position, text, prompt, sent_at) VALUES (?1, ?2, 1, ?3, ?4, ?5)').bind(
        importId,
        owner.id,
        'Add a pinch of nutmeg, that is the secret.',
        'How do you make your famous custard?',
        Date.now(),
      ),
    ]);
    const res = await simulate(owner, { prompt: 'How did you make the custard?' });
    expect(res.data).toMatchObject({
      text: 'In my own words: Add a pinch of nutmeg, that is the secret.',
      source: 'own_words',
      based_on: ['Their own words in an imported chat'],
    });
  });

  it('refuses an empty prompt (422), answers nothing without a persona (409), and gives text only on the Free plan', async () => {
    const owner = await signedInUser();
    expect((await simulate(owner, { prompt: 'hello' })).status).toBe(409);
    await personaOf(owner);
    for (const body of [{ prompt: '' }, { prompt: '   ' }, {}]) {
      const res = await simulate(owner, body);
      expect(res.status).toBe(422);
      expect(res.data.detail[0].loc).toEqual(['body', 'prompt']);
    }
    const free = await simulate(owner, { prompt: 'Any advice?' });
    expect(free.data).toMatchObject({ audio_base64: '', audio_seconds: 0, voice_seconds_left: 0 });
    expect(free.data.notice).toBe('Replies are text only: the Free plan has no voice minutes per session.');
  });

  it('counts the seconds of speech per session on the server and stops speaking at the plan’s minutes', async () => {
    const owner = await signedInUser();
    await personaOf(owner);
    await setPlan(owner, 'plus');
    const first = (await simulate(owner, { prompt: 'Any advice?' })).data;
    const spoken = first.audio_seconds;
    // Four minutes and fifty-nine seconds already spoken in this session: the next reply does not fit in five.
    await env.DB.prepare('UPDATE persona_chat_sessions SET audio_ms = ?2 WHERE id = ?1').bind(first.session_id, 299_000).run();
    const over = (await simulate(owner, { prompt: 'Any advice?', session_id: first.session_id })).data;
    expect(over).toMatchObject({ session_id: first.session_id, audio_base64: '', audio_seconds: 0, voice_seconds_left: 1 });
    expect(over.notice).toMatch(/^This conversation has used its 5 minutes of spoken replies; replies go on as text\./);
    expect(over.text).toContain('Be kind');
    // A new session speaks again.
    const fresh = (await simulate(owner, { prompt: 'Any advice?' })).data;
    expect(fresh.session_id).not.toBe(first.session_id);
    expect(fresh.audio_seconds).toBeCloseTo(spoken, 3);
    // Another person's session id is not theirs: a new session.
    const other = await signedInUser();
    await personaOf(other);
    expect((await simulate(other, { prompt: 'Any advice?', session_id: first.session_id })).data.session_id).not.toBe(first.session_id);
  });
});

describe('the engine is chosen by configuration (VOICE_ENGINE)', () => {
  it('workers-ai words the reply through the AI binding (a recording fake here), and says it is not a quote; without the binding, 501', async () => {
    const owner = await signedInUser();
    await personaOf(owner);
    const calls: string[] = [];
    const AI = {
      async run(model: string) {
        calls.push(model);
        return { response: 'Be kind to one another, and ring your mother on Sundays.' };
      },
    };
    const reply = await simulateResponse(createServiceContext({ ...env, VOICE_ENGINE: 'workers-ai', AI }), owner.id, { prompt: 'Any advice?' });
    expect(calls).toEqual(['@cf/meta/llama-3.1-8b-instruct']);
    expect(reply).toMatchObject({
      engine: 'workers-ai',
      source: 'ai_worded',
      text: 'Be kind to one another, and ring your mother on Sundays. (Worded by an AI model from their own words; not a quote.)',
    });
    await expect(simulateResponse(createServiceContext({ ...env, VOICE_ENGINE: 'workers-ai' }), owner.id, { prompt: 'Any advice?' })).rejects.toMatchObject({
      status: 501,
    });
  });
});

describe('who may talk to the persona', () => {
  it('before release only the owner: a chosen recipient, the keeper and an outsider get 404', async () => {
    const { owner, recipient, keeper, outsider } = await family();
    expect((await ask(owner, owner, 'Any advice?')).status).toBe(200);
    for (const who of [recipient, keeper, outsider]) {
      const res = await ask(who, owner, 'Any advice?');
      expect(res.status).toBe(404);
      expect(res.data).toEqual({ detail: 'No persona to talk to here' });
      expect((await api('GET', '/api/personas', { token: who.token })).data).toEqual([]);
      expect((await api('POST', `/api/personas/${owner.id}/retire`, { token: who.token, json: { for: 'me' } })).status).toBe(404);
    }
  });

  it('after a missed-check-in release, the chosen recipient talks to it; the outsider still gets 404', async () => {
    const { owner, recipient, outsider } = await family();
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const m = await createMessageFor(owner.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: 1, expire_window: 1 }],
    });
    const t = Date.now() + 2 * 3600_000;
    const deadline = Date.parse(canary.last_check_in) + 3600_000;
    await captureQueues(() =>
      armOnMissedCheckins(servicesAt(t), {
        type: 'missed_checkins',
        event_id: crypto.randomUUID(),
        user_id: owner.id,
        canary_id: canary.id,
        misses: 1,
        deadline: new Date(deadline).toISOString(),
        fired_at: new Date(t).toISOString(),
      }),
    );
    expect((await ask(recipient, owner, 'Any advice?')).status).toBe(404);
    await captureQueues(() => advanceMessage(servicesAt(t + DAY), m.id, 'direct'));
    expect((await messageRow(m.id))!.released_at).not.toBeNull();

    const res = await ask(recipient, owner, 'Any advice?');
    expect(res.status).toBe(200);
    expect(res.data.text).toContain('Be kind, and call your mother on Sundays.');
    const listed = (await api('GET', '/api/personas', { token: recipient.token })).data;
    expect(listed).toMatchObject([{ owner_id: owner.id, is_own: false, is_keeper: false, can_talk: true, behavior: 'comforting' }]);
    expect((await ask(outsider, owner, 'Any advice?')).status).toBe(404);
  });

  it('after confirmed death: locked Messages from the Beyond are heard; a recipient retires it for themselves only', async () => {
    const { owner, recipient, keeper } = await family();
    const other = await signedInUser();
    await contactsOf(owner, other);
    await api('PUT', '/api/ai/persona-access', { token: owner.token, json: { recipient_ids: [recipient.id, other.id], keeper_id: keeper.id } });
    const form = new FormData();
    form.append('prompt', 'What should I do when I miss you?');
    form.append('response_text', 'Go to the sea and put your feet in the water.');
    form.append('locked', 'true');
    expect((await api('POST', '/api/voice/prompt', { token: owner.token, body: form })).status).toBe(201);
    await confirmDeathDirectly(owner.id, Date.now());

    const heard = await ask(recipient, owner, 'What should I do when I miss you?');
    expect(heard.data.text).toContain('Go to the sea and put your feet in the water.');
    expect(heard.data.based_on).toEqual(['Message from the Beyond: “What should I do when I miss you?”']);

    // Only the keeper (or the owner) retires it for everyone.
    expect((await api('POST', `/api/personas/${owner.id}/retire`, { token: recipient.token, json: { for: 'everyone' } })).status).toBe(403);
    expect((await api('POST', `/api/personas/${owner.id}/retire`, { token: recipient.token, json: { for: 'me' } })).status).toBe(200);
    expect((await ask(recipient, owner, 'Any advice?')).status).toBe(404);
    expect((await api('GET', '/api/personas', { token: recipient.token })).data).toEqual([]);
    // The other recipient still talks to it.
    expect((await ask(other, owner, 'Any advice?')).status).toBe(200);
    const access = (await api('GET', '/api/ai/persona-access', { token: owner.token })).data;
    expect(access.released).toBe(true);
    expect(access.recipients.find((r: { user_id: string }) => r.user_id === recipient.id).retired_at).not.toBeNull();
  });

  it('the keeper retires it for everyone: nothing answers any more, and the persona and its data are deleted', async () => {
    const { owner, recipient, keeper } = await family();
    await confirmDeathDirectly(owner.id, Date.now());
    // The keeper (not a recipient) sees it to retire it, but cannot talk to it.
    expect((await api('GET', '/api/personas', { token: keeper.token })).data).toMatchObject([{ owner_id: owner.id, is_keeper: true, can_talk: false }]);
    expect((await ask(keeper, owner, 'Any advice?')).status).toBe(404);
    const { session_id } = (await ask(recipient, owner, 'Any advice?')).data;
    expect(session_id).toBeTruthy();
    expect((await api('POST', `/api/personas/${owner.id}/retire`, { token: keeper.token, json: { for: 'everyone' } })).status).toBe(200);

    for (const who of [recipient, keeper, owner]) expect((await ask(who, owner, 'Any advice?')).status).toBe(404);
    expect((await api('GET', '/api/personas', { token: recipient.token })).data).toEqual([]);
    const left = await env.DB.prepare(
      `SELECT (SELECT count(*) FROM persona_profiles WHERE user_id = ?1) + (SELECT count(*) FROM voice_profiles WHERE user_id = ?1)
            + (SELECT count(*) FROM persona_recipients WHERE owner_id = ?1) + (SELECT count(*) FROM persona_chat_sessions WHERE owner_id = ?1)
            + (SELECT count(*) FROM voice_prompts WHERE owner_id = ?1) + (SELECT count(*) FROM persona_chat_lines WHERE owner_id = ?1) AS n, (SELECT retired_by FROM persona_settings WHERE owner_id = ?1) AS by`,
    )
      .bind(owner.id)
      .first<{ n: number; by: string }>();
    expect(left).toEqual({ n: 0, by: 'keeper' });
  });

  it('the owner chooses recipients and the keeper among accepted contacts only (422 otherwise)', async () => {
    const owner = await signedInUser();
    const [friend, stranger] = await Promise.all([signedInUser(), signedInUser()]);
    await contactsOf(friend, owner); // either side may have invited
    const empty = (await api('GET', '/api/ai/persona-access', { token: owner.token })).data;
    expect(empty).toMatchObject({ recipients: [], keeper: null, released: false, retired_at: null });
    expect(empty.candidates.map((c: { user_id: string }) => c.user_id)).toEqual([friend.id]);
    const refused = await api('PUT', '/api/ai/persona-access', { token: owner.token, json: { recipient_ids: [friend.id, stranger.id], keeper_id: null } });
    expect(refused.status).toBe(422);
    expect(refused.data.detail[0]).toMatchObject({ loc: ['body', 'recipient_ids', 1], type: 'not_a_contact' });
    const badKeeper = await api('PUT', '/api/ai/persona-access', { token: owner.token, json: { recipient_ids: [], keeper_id: stranger.id } });
    expect(badKeeper.data.detail[0].loc).toEqual(['body', 'keeper_id']);
    const saved = await api('PUT', '/api/ai/persona-access', { token: owner.token, json: { recipient_ids: [friend.id], keeper_id: friend.id } });
    expect(saved.data).toMatchObject({ recipients: [{ user_id: friend.id, retired_at: null }], keeper: { user_id: friend.id } });
  });
});
