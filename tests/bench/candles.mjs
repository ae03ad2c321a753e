#!/usr/bin/env node
// Candles under concurrency (docs/performance.md "Candles"). Prints figures, asserts nothing.
// Used by tests/bench/index.mjs on its Worker (BENCH_CANDLES=0 skips it); `node tests/bench/candles.mjs`
// runs it alone on a Worker of its own.
//
// Path measured: 100 accounts (BENCH_CANDLE_USERS) and one memorial with 10 posts (BENCH_CANDLE_POSTS);
// every account lights a candle on every post, all 1,000 POST /api/memorial/candle/{post} requests sent
// at once from this process (fetch, no connection limit) through `wrangler dev` to workerd and local D1.
// Then the same 1,000 again (each a second light: 200, nothing added). Counted: the posts' candle_count
// from GET /api/memorial/{id} against users × posts, and the statuses.
import { loadavg } from 'node:os';
import { benchRuntime, startBenchWorker } from './bench-worker.mjs';

const USERS = Number(process.env.BENCH_CANDLE_USERS ?? 100);
const POSTS = Number(process.env.BENCH_CANDLE_POSTS ?? 10);
const PASSWORD = 'Correct-Horse-Battery-42';

const say = (msg) => console.log(`bench[candles] ${new Date().toISOString().slice(11, 19)} (load ${loadavg()[0].toFixed(2)}) ${msg}`);

async function call(origin, method, path, { body, token } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const t = performance.now();
  const res = await fetch(new URL(path, origin), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, ms: performance.now() - t };
}

async function account(origin, i) {
  const email = `candle-${i}-${Date.now()}@example.test`;
  const reg = await call(origin, 'POST', '/api/auth/register', { body: { email, password: PASSWORD, data_policy_region: 'INTL-General' } });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const login = await call(origin, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  return login.body.access_token;
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

async function lightAll(origin, tokens, posts) {
  const started = performance.now();
  const answers = await Promise.all(tokens.flatMap((token) => posts.map((id) => call(origin, 'POST', `/api/memorial/candle/${id}`, { token }))));
  const wallMs = performance.now() - started;
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  const statuses = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  return { wallMs, p50: pct(ms, 50), p99: pct(ms, 99), statuses };
}

export async function runCandleBench(worker) {
  const { origin } = worker;
  say(`registering ${USERS} accounts (10 at a time)…`);
  const tokens = [];
  for (let i = 0; i < USERS; i += 10) tokens.push(...(await Promise.all(Array.from({ length: Math.min(10, USERS - i) }, (_, k) => account(origin, i + k)))));
  const memorial = await call(origin, 'POST', '/api/memorial/create', { token: tokens[0], body: { name: 'Bench memorial' } });
  const posts = [];
  for (let i = 0; i < POSTS; i++)
    posts.push(
      (await call(origin, 'POST', `/api/memorial/${memorial.body.id}/post`, { token: tokens[i % tokens.length], body: { text: `post ${i}` } })).body.id,
    );
  say(`lighting ${USERS * POSTS} candles at once…`);
  const first = await lightAll(origin, tokens, posts);
  say(`lighting the same ${USERS * POSTS} again (second lights)…`);
  const second = await lightAll(origin, tokens, posts);
  const page = await call(origin, 'GET', `/api/memorial/${memorial.body.id}`);
  const counts = page.body.posts.map((p) => p.candle_count);
  return { expected: USERS * POSTS, counted: counts.reduce((a, b) => a + b, 0), perPost: counts, first, second, load: loadavg()[0] };
}

export function printCandleResults(R) {
  console.log('\n== Candles: 1,000 lights from 100 people at once ==');
  const row = (label, r) =>
    console.log(
      `  ${label}: ${(r.wallMs / 1000).toFixed(1)} s wall, p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms, statuses ${JSON.stringify(r.statuses)}`,
    );
  row('first lights ', R.first);
  row('second lights', R.second);
  console.log(`  counted ${R.counted} of ${R.expected} expected; per post: ${R.perPost.join(', ')}; load ${R.load.toFixed(2)}`);
}

// Standalone: `node tests/bench/candles.mjs`.
if (import.meta.url === `file://${process.argv[1]}`) {
  say('starting wrangler dev (fresh local D1)…');
  say(benchRuntime().describe);
  const worker = await startBenchWorker({ log: process.env.AFTERWORD_WORKER_LOG ? (l) => console.error(`[wrangler] ${l}`) : undefined });
  let R;
  try {
    R = await runCandleBench(worker);
  } finally {
    await worker.stop();
  }
  printCandleResults(R);
}
