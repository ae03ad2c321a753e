#!/usr/bin/env node
// "D1 far away" (docs/performance.md): does a path wait for D1? Prints figures, asserts nothing.
// Two Workers through `wrangler dev`: one as is, one with D1_DELAY_MS (default 80, BENCH_D1_DELAY_MS) added
// to every D1 round trip (worker/src/lib/d1-delay.ts), as if D1's primary were on another continent. On
// each, one connection at a time: the token check-in (POST /api/canary/checkin {token}, rotating over 20
// canaries) and a D1-bound call of the same size (GET /api/canary/status with a session), 300 each.
// A path that does not wait for D1 keeps its p50; one that does pays the delay per round trip.
// `node tests/bench/d1-far.mjs` runs it alone; tests/bench/index.mjs calls it unless BENCH_D1_FAR=0.
import { loadavg } from 'node:os';
import { startBenchWorker } from './bench-worker.mjs';

const DELAY_MS = Number(process.env.BENCH_D1_DELAY_MS ?? 80);
const N = Number(process.env.BENCH_D1_FAR_REQUESTS ?? 300);
const CANARIES = 20;
const PASSWORD = 'Correct-Horse-Battery-42';
const say = (msg) => console.log(`bench[d1-far] ${new Date().toISOString().slice(11, 19)} (load ${loadavg()[0].toFixed(2)}) ${msg}`);

async function call(origin, method, path, { body, token } = {}) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/** `n` sequential requests; latency p50/p99 in ms and the count of answers that were not 200. */
async function measure(n, request) {
  const times = [];
  let failed = 0;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await request(i);
    times.push(performance.now() - t);
    if (res.status !== 200) failed++;
  }
  times.sort((a, b) => a - b);
  return { p50: pct(times, 50), p99: pct(times, 99), failed };
}

async function onWorker(vars) {
  const worker = await startBenchWorker({ vars });
  try {
    const { origin } = worker;
    const email = `bench.d1far.${Date.now()}@example.test`;
    const reg = await call(origin, 'POST', '/api/auth/register', { body: { email, password: PASSWORD, data_policy_region: 'INTL-General' } });
    if (reg.status !== 201) throw new Error(`register failed: ${reg.status}`);
    const session = (await call(origin, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } })).body.access_token;
    // The Free plan allows one canary: check-ins rotate over the one canary's token and, to spread the
    // objects, over as many accounts' canaries as CANARIES.
    const tokens = [];
    for (let i = 0; i < CANARIES; i++) {
      const e = `bench.d1far.${Date.now()}.${i}@example.test`;
      await call(origin, 'POST', '/api/auth/register', { body: { email: e, password: PASSWORD, data_policy_region: 'INTL-General' } });
      const s = (await call(origin, 'POST', '/api/auth/login', { body: { email: e, password: PASSWORD } })).body.access_token;
      const c = await call(origin, 'POST', '/api/canary/create', { body: { interval_seconds: 86_400 }, token: s });
      if (c.status !== 201) throw new Error(`create failed: ${c.status}`);
      tokens.push(c.body.token);
    }
    await call(origin, 'POST', '/api/canary/create', { body: { interval_seconds: 86_400 }, token: session });
    for (let i = 0; i < 20; i++) await call(origin, 'POST', '/api/canary/checkin', { body: { token: tokens[i % tokens.length] } }); // warm-up
    const checkIn = await measure(N, (i) => call(origin, 'POST', '/api/canary/checkin', { body: { token: tokens[i % tokens.length] } }));
    const status = await measure(N, () => call(origin, 'GET', '/api/canary/status', { token: session }));
    return { checkIn, status };
  } finally {
    await worker.stop();
  }
}

export async function runD1FarBench() {
  say(`Worker as is: ${N} token check-ins and ${N} status reads, one at a time…`);
  const near = await onWorker({});
  say(`Worker with D1_DELAY_MS=${DELAY_MS}: the same…`);
  const far = await onWorker({ D1_DELAY_MS: String(DELAY_MS) });
  return { delayMs: DELAY_MS, n: N, near, far };
}

export function printD1FarResults(r) {
  const f = (v) => `${v.toFixed(1)} ms`;
  console.log(`\n## D1 far away: +${r.delayMs} ms per D1 round trip (${r.n} requests each, one at a time)`);
  console.log('| call | p50 as is | p50 with delay | p50 difference | p99 as is | p99 with delay | not 200 |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [label, key] of [
    ['POST /api/canary/checkin {token}', 'checkIn'],
    ['GET /api/canary/status (session; D1-bound)', 'status'],
  ]) {
    const a = r.near[key];
    const b = r.far[key];
    console.log(`| ${label} | ${f(a.p50)} | ${f(b.p50)} | ${f(b.p50 - a.p50)} | ${f(a.p99)} | ${f(b.p99)} | ${a.failed + b.failed} |`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runD1FarBench();
  printD1FarResults(r);
}
