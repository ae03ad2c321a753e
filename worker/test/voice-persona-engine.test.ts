import { describe, expect, it } from 'vitest';
import { localReplyEngine, type WorkersAiBinding, type WorkersAiChatInput, workersAiReplyEngine } from '../src/domains/voice/persona-engine/engines';
import type { PersonaSnippet } from '../src/domains/voice/persona-engine/material';
import { PersonaIndex } from '../src/domains/voice/persona-engine/retrieval';
import { phrases, samPitchFor, samSpeedFor, samSynthesiser, samText } from '../src/domains/voice/persona-engine/speech';
import { claimsLife, TONES, withoutLifeClaims } from '../src/domains/voice/persona-engine/tone';
import { analyseVoice, wavToMono } from '../src/domains/voice/voice-analysis';

/** The local persona engine's parts, without the API (docs/decisions/voice.md). */
const ADA: PersonaSnippet[] = [
  {
    id: 'seed:advice',
    question: 'What advice would you give the people you love?',
    text: 'Be kind, and call your mother on Sundays.',
    label: 'Answer to “What advice would you give the people you love?”',
  },
  {
    id: 'seed:places',
    question: 'Which places mean the most to you, and why?',
    text: 'The harbour at Whitby, where we ate chips in the rain.',
    label: 'Answer to “Which places …?”',
  },
  {
    id: 'seed:laugh',
    question: 'What always makes you laugh?',
    text: 'Your grandfather trying to fold a map.',
    label: 'Answer to “What always makes you laugh?”',
  },
  {
    id: 'beyond:1',
    question: 'What should I do when I miss you?',
    text: "Go to the sea. I'm still here with you. Put your feet in the water.",
    label: 'Message from the Beyond',
  },
];
const index = new PersonaIndex(ADA);

describe('retrieval over the owner’s words (MiniSearch BM25)', () => {
  it('answers a seed question, asked in other words, with the owner’s own answer', () => {
    expect(index.find('Any advice for us?').matches[0]!.id).toBe('seed:advice');
    expect(index.find('What place meant most to you?').matches[0]!.id).toBe('seed:places');
    expect(index.find('what made you laugh').matches[0]!.id).toBe('seed:laugh');
  });

  it('answers a paraphrase of an answered question: "I miss you. What should I do?" finds the answer for someone who misses them', () => {
    const answered = new PersonaIndex([
      ...ADA.filter((s) => s.id !== 'beyond:1'),
      {
        id: 'seed:missing_me',
        question: 'What would you tell someone who misses you?',
        text: 'Look at the stars and remember I loved you.',
        label: 'Answer to “What would you tell someone who misses you?”',
      },
    ]);
    for (const asked of ['I miss you. What should I do?', 'We are missing you so much', 'What did you want us to remember?'])
      expect(answered.find(asked).matches[0]?.id, asked).toBe('seed:missing_me');
    expect(index.find('Tell me about your memories of the harbour').matches[0]!.id).toBe('seed:places');
  });

  it('finds nothing for a question the owner never answered, or one of only filler words', () => {
    expect(index.find('What is your favourite football team?').matches).toEqual([]);
    expect(index.find('what do you?')).toEqual({ matches: [], queryTerms: [] });
  });
});

describe('the local reply engine and its tone rules', () => {
  const ask = (prompt: string, behavior: 'playful' | 'wise' | 'comforting' | 'neutral') =>
    localReplyEngine.reply({ prompt, behavior, retrieval: index.find(prompt), answered: ['What advice would you give the people you love?'] });

  it('quotes the owner’s words, and each tone frames them differently', async () => {
    const replies = await Promise.all((['playful', 'wise', 'comforting', 'neutral'] as const).map((b) => ask('Any advice for us?', b)));
    for (const r of replies) {
      expect(r.source).toBe('own_words');
      expect(r.text).toContain('Be kind, and call your mother on Sundays.');
      expect(r.based_on).toEqual(['Answer to “What advice would you give the people you love?”']);
    }
    expect(new Set(replies.map((r) => r.text)).size).toBe(4);
    expect(replies[0]!.text).toMatch(/^Ha, good one!/);
    expect(replies[2]!.text).toMatch(/Be gentle with yourself\.$/);
  });

  it('says when the answer is not from the person’s own words, in the tone, and offers what they did answer', async () => {
    const playful = await ask('Who won the match?', 'playful');
    const neutral = await ask('Who won the match?', 'neutral');
    expect(playful.source).toBe('no_match');
    expect(neutral.text).toBe(
      'I did not leave an answer to that. This reply is not from my own words. You could ask about “What advice would you give the people you love?”.',
    );
    expect(playful.text).toContain('not from my own words');
    expect(playful.text).not.toBe(neutral.text);
  });

  it('never claims the person is alive, even when their own words would, and never advertises', async () => {
    const reply = await ask('What should I do when I miss you?', 'comforting');
    expect(reply.text).toContain('Go to the sea. Put your feet in the water.');
    expect(claimsLife(reply.text)).toBe(false);
    expect(withoutLifeClaims("I'm alive and well. I love you.")).toBe('I love you.');
    for (const tone of Object.values(TONES)) {
      const all = Object.values(tone).join(' ');
      expect(claimsLife(all)).toBe(false);
      expect(all).not.toMatch(/afterword|plan|upgrade|subscribe|premium|\$/i);
    }
  });
});

describe('the workers-ai reply engine (adapter request shape, against a recording fake binding)', () => {
  it('grounds the model in the retrieved snippets with the rules, and marks its words as not a quote', async () => {
    const calls: { model: string; input: Parameters<WorkersAiBinding['run']>[1] }[] = [];
    const fake: WorkersAiBinding = {
      async run(model, input) {
        calls.push({ model, input });
        return { response: 'Be kind to each other, and ring your mother on a Sunday.' };
      },
    };
    const engine = workersAiReplyEngine(fake);
    const reply = await engine.reply({ prompt: 'Any advice for us?', behavior: 'wise', retrieval: index.find('Any advice for us?'), answered: [] });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.model).toBe('@cf/meta/llama-3.1-8b-instruct');
    const [system, user] = (calls[0]!.input as WorkersAiChatInput).messages;
    expect(user).toEqual({ role: 'user', content: 'Any advice for us?' });
    expect(system!.role).toBe('system');
    expect(system!.content).toContain('[1] (What advice would you give the people you love?) Be kind, and call your mother on Sundays.');
    expect(system!.content).toMatch(/never claim to be alive/);
    expect(system!.content).toMatch(/never mention any product/);
    expect(system!.content).toContain('Tone: wise and reflective.');
    expect(reply).toEqual({
      text: 'Be kind to each other, and ring your mother on a Sunday. (Worded by an AI model from their own words; not a quote.)',
      source: 'ai_worded',
      based_on: ['Answer to “What advice would you give the people you love?”'],
    });
  });

  it('does not ask the model when nothing matched, and says so like the local engine', async () => {
    const calls: unknown[] = [];
    const engine = workersAiReplyEngine({
      run: async (...a) => {
        calls.push(a);
        return { response: 'made up' };
      },
    });
    const reply = await engine.reply({ prompt: 'Who won the match?', behavior: 'neutral', retrieval: index.find('Who won the match?'), answered: [] });
    expect(calls).toEqual([]);
    expect(reply.source).toBe('no_match');
  });
});

describe('speech from SAM (sam-js), tuned by the voice profile', () => {
  it('speaks a WAV whose pitch follows the profile’s pitch', async () => {
    for (const hz of [100, 170, 220]) {
      const speech = await samSynthesiser.synthesize('Be kind, and call your mother on Sundays. I loved the sea.', {
        pitch_hz: hz,
        syllables_per_second: null,
      });
      expect(speech.seconds).toBeGreaterThan(1.5);
      expect(speech.contentType).toBe('audio/wav');
      const mono = wavToMono(speech.audio)!;
      expect(mono.samples.length / mono.rate).toBeCloseTo(speech.seconds, 2);
      const measured = analyseVoice(mono.samples, mono.rate).pitchHz!;
      expect(Math.abs(measured - hz) / hz).toBeLessThan(0.12);
    }
  });

  it('speaks faster for a faster speaker, and reads any text SAM can say', async () => {
    const slow = await samSynthesiser.synthesize('The harbour at Whitby, where we ate chips in the rain.', { pitch_hz: null, syllables_per_second: 2.5 });
    const fast = await samSynthesiser.synthesize('The harbour at Whitby, where we ate chips in the rain.', { pitch_hz: null, syllables_per_second: 5 });
    expect(fast.seconds).toBeLessThan(slow.seconds * 0.7);
    expect(samSpeedFor(null)).toBe(72);
    expect(samPitchFor(null)).toBe(64);
    expect(samText('“Café” — naïve ✨ 100%')).toBe('Cafe , naive 100');
    expect(phrases('One. '.repeat(2) + 'word '.repeat(60)).every((p) => p.length <= 100)).toBe(true);
  });
});
