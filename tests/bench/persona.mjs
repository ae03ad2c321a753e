#!/usr/bin/env node
// The persona engine's figures (docs/decisions/voice.md "Figures"). Prints figures,
// asserts nothing. `node tests/bench/persona.mjs` runs it on a Worker of its own (`wrangler dev`, local D1).
//
// 1. Reply latency of the local engine, end to end: POST /api/voice/simulate-response one at a time
//    (BENCH_PERSONA_REPLIES, default 200; half the prompts match a seed answer, half match nothing) for
//    an owner on the Free plan (text only: retrieval + tone rules + D1) and on Immortality (the same plus
//    SAM speech of the reply, base64 in the JSON). Through wrangler's local proxy, so absolute numbers
//    carry its overhead.
// 2. Synthesis time per sentence: sam-js (the package the Worker bundles) in this Node process, each of
//    8 sentences of 5–20 words synthesised BENCH_SAM_RUNS times (default 20): ms per sentence, and the
//    seconds of audio it makes.
import { loadavg } from 'node:os';
import SamJs from 'sam-js';
import { d1Batch } from '../support/d1.mjs';
import { startBenchWorker } from './bench-worker.mjs';

const REPLIES = Number(process.env.BENCH_PERSONA_REPLIES ?? 200);
const SAM_RUNS = Number(process.env.BENCH_SAM_RUNS ?? 20);
const PASSWORD = 'Correct-Horse-Battery-42';
const say = (msg) => console.log(`bench[persona] ${new Date().toISOString().slice(11, 19)} (load ${loadavg()[0].toFixed(2)}) ${msg}`);
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const fmt = (v) => `${v.toFixed(1)} ms`;

async function call(origin, method, path, { body, token } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const t = performance.now();
  const res = await fetch(new URL(path, origin), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, ms: performance.now() - t };
}

const ANSWERS = {
  earliest_memory: 'Paddling in the sea at Whitby with my father, my trousers rolled up, the water so cold I shrieked.',
  proudest: 'Thirty years of students who learned that maths is not a punishment.',
  advice: 'Be kind, and call your mother on Sundays. Save a little every month. Say sorry first.',
  remembered: 'As someone who listened more than she talked, and laughed at her own jokes.',
  laugh: 'Your grandfather trying to fold a map in the wind.',
  hardest_time: 'When the school closed I learned that you can start again at fifty.',
  places: 'The harbour at Whitby, where we ate chips in the rain, and the allotment on Chapel Lane.',
  traditions: 'Pancakes on Sunday mornings and a walk on Boxing Day, whatever the weather.',
  said_more: 'That I was proud of you. I was, every day.',
  missing_me: 'Go to the sea, put your feet in the water, and then go and have chips.',
};
const MATCHING = ['Any advice for me?', 'What made you laugh?', 'Which places mattered to you?', 'What traditions did we have?', 'What are you proud of?'];
const NOT_MATCHING = ['Who won the football?', 'What is the capital of Peru?', 'Do you like jazz?', 'What car should I buy?', 'How do computers work?'];

async function owner(origin, persistDir, plan) {
  const email = `persona-bench-${plan}-${Date.now()}@example.test`;
  const reg = await call(origin, 'POST', '/api/auth/register', { body: { email, password: PASSWORD, data_policy_region: 'INTL-General' } });
  const login = await call(origin, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
  const token = login.body.access_token;
  await d1Batch(persistDir, [`UPDATE users SET plan = '${plan}' WHERE id = '${reg.body.id}'`]);
  const qa = Object.entries(ANSWERS).map(([question_id, answer]) => ({ question_id, answer }));
  const saved = await call(origin, 'POST', '/api/ai/train-profile', {
    token,
    body: { persona_text: 'I taught maths for thirty years.', behavior: 'comforting', qa },
  });
  if (saved.status !== 200) throw new Error(`persona not saved: ${saved.status}`);
  return token;
}

async function replies(origin, token) {
  const ms = [];
  let audioSeconds = 0;
  for (let i = 0; i < REPLIES; i += 1) {
    const prompt = (i % 2 ? NOT_MATCHING : MATCHING)[Math.floor(i / 2) % 5];
    const res = await call(origin, 'POST', '/api/voice/simulate-response', { token, body: { prompt } });
    if (res.status !== 200) throw new Error(`reply ${res.status}: ${JSON.stringify(res.body)}`);
    ms.push(res.ms);
    audioSeconds += res.body.audio_seconds;
  }
  ms.sort((a, b) => a - b);
  return { p50: pct(ms, 50), p99: pct(ms, 99), audioSeconds };
}

function synthesis() {
  const sentences = [
    'Be kind.',
    'Call your mother on Sundays.',
    'Go to the sea and put your feet in the water.',
    'The harbour at Whitby, where we ate chips in the rain.',
    'Thirty years of students who learned that maths is not a punishment.',
    'I left these words for moments like this, so be gentle with yourself.',
    'Pancakes on Sunday mornings and a walk on Boxing Day, whatever the weather, every single year.',
    'When the school closed I learned that you can start again at fifty, and that is worth remembering.',
  ];
  const sam = new SamJs({ pitch: 64, speed: 72 });
  sam.buf8('Warm up.');
  const ms = [];
  let audio = 0;
  for (let run = 0; run < SAM_RUNS; run += 1) {
    for (const s of sentences) {
      const t = performance.now();
      const pcm = sam.buf8(s);
      ms.push(performance.now() - t);
      if (run === 0) audio += pcm.length / 22050;
    }
  }
  ms.sort((a, b) => a - b);
  return { p50: pct(ms, 50), p99: pct(ms, 99), audioPerSentence: audio / sentences.length };
}

const syn = synthesis();
say(
  `SAM synthesis per sentence (5–20 words, Node ${process.version}): p50 ${fmt(syn.p50)}, p99 ${fmt(syn.p99)}; ${syn.audioPerSentence.toFixed(2)} s of audio per sentence on average`,
);

const worker = await startBenchWorker();
try {
  const free = await owner(worker.origin, worker.persistDir, 'free');
  const immortal = await owner(worker.origin, worker.persistDir, 'immortality');
  const text = await replies(worker.origin, free);
  say(`reply latency, text only (Free plan), ${REPLIES} replies one at a time: p50 ${fmt(text.p50)}, p99 ${fmt(text.p99)}`);
  const spoken = await replies(worker.origin, immortal);
  say(
    `reply latency with speech (Immortality plan), ${REPLIES} replies: p50 ${fmt(spoken.p50)}, p99 ${fmt(spoken.p99)}; ${(spoken.audioSeconds / REPLIES).toFixed(1)} s of speech per reply`,
  );
} finally {
  await worker.stop();
}
