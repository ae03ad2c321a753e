#!/usr/bin/env node
// Webhook fan-out benchmark (docs/decisions/webhooks.md "Measured"). Prints figures, asserts nothing.
// Used by tests/bench/index.mjs on its Worker (BENCH_WEBHOOKS=0 skips it); `node tests/bench/webhooks.mjs`
// runs it alone on a Worker of its own.
//
// Path measured: one account with N webhook endpoints (default 100, the per-account maximum) on a receiver
// in this process (node:http on 127.0.0.1, answering 200 and verifying every request afterwards with the
// published `standardwebhooks` package), and one canary (interval 60 s) that is left to miss its deadline.
// Per endpoint: latency = when the receiver answered 200 to its first request − the canary's deadline
// (last_check_in + interval). The chain in between: CanaryClock alarm at the deadline → missed transition →
// `missed_checkins` on JOBS → the webhooks subscriber writes N deliveries and puts N jobs on DELIVERIES →
// the queue consumer claims, signs and POSTs each. Everything runs under `wrangler dev` (local proxy,
// workerd, local D1, miniflare's local queues), not Cloudflare's edge; all timestamps come from one clock.
// Lost = no request after the wait; twice = more than one request carrying one endpoint's webhook-id.
// Env: BENCH_WEBHOOK_N (100), BENCH_WEBHOOK_WAIT (120 s after the deadline at most), BENCH_CRON=0 (no
//      emulated every-minute cron; --test-scheduled is needed for it).
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { Webhook } from 'standardwebhooks';
import { d1 } from '../support/d1.mjs';
import { benchRuntime, startBenchWorker } from './bench-worker.mjs';

const N = Number(process.env.BENCH_WEBHOOK_N ?? 100);
const WAIT_MS = Number(process.env.BENCH_WEBHOOK_WAIT ?? 120) * 1000;
const CRON = process.env.BENCH_CRON !== '0';
const INTERVAL_S = 60;
const PASSWORD = 'Correct-Horse-Battery-42';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const say = (msg) => console.log(`bench[webhooks] ${new Date().toISOString().slice(11, 19)} (load ${loadavg()[0].toFixed(2)}) ${msg}`);
const fmtMs = (v) => (v == null || Number.isNaN(v) ? 'n/a' : `${Number(v).toFixed(0)} ms`);
const q = (s) => `'${String(s).replace(/'/g, "''")}'`;

function pct(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
function stats(values) {
  const s = values.filter((v) => v != null).sort((a, b) => a - b);
  return { n: s.length, p50: pct(s, 50), p99: pct(s, 99), min: s[0] ?? null, max: s.at(-1) ?? null };
}

async function call(origin, method, path, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    // wrangler dev restarting workerd on a file change: retried.
    if (res.status === 503 && /restarted mid-request/.test(text) && attempt < 5) {
      await sleep(1000);
      continue;
    }
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed };
  }
}

/** The receiver: answers 200 at once, records when, then verifies the request with standardwebhooks. */
async function startReceiver(secrets) {
  const hits = new Map(); // index → [{at, id, verified}]
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      const at = Date.now();
      const i = Number(req.url?.match(/^\/hook\/(\d+)$/)?.[1] ?? NaN);
      let verified = false;
      try {
        new Webhook(secrets.get(i)).verify(Buffer.concat(chunks).toString('utf8'), req.headers);
        verified = true;
      } catch {}
      const list = hits.get(i) ?? [];
      list.push({ at, id: req.headers['webhook-id'], verified });
      hits.set(i, list);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    hits,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export async function runWebhookBench(worker) {
  const { origin, persistDir } = worker;
  const R = { n: N };
  const secrets = new Map();
  const receiver = await startReceiver(secrets);
  let cronTimer = null;
  let cronRuns = 0;
  try {
    // Earlier parts of `npm run bench` leave canaries missing every minute; they would share the queues.
    const [left] = await d1(persistDir, `SELECT count(*) AS n FROM canaries WHERE active = 1`);
    if (left.n) await d1(persistDir, `UPDATE canaries SET active = 0 WHERE active = 1`);
    R.deactivated = left.n;

    const email = `bench.webhooks.${Date.now()}@example.test`;
    const reg = await call(origin, 'POST', '/api/auth/register', { email, password: PASSWORD, data_policy_region: 'INTL-General' });
    if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
    const login = await call(origin, 'POST', '/api/auth/login', { email, password: PASSWORD });
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
    const token = login.body.access_token;

    say(`creating ${N} webhook endpoints on ${receiver.base} (10 in flight)…`);
    const t0 = Date.now();
    const hooks = new Array(N);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(10, N) }, async () => {
        for (;;) {
          const i = next++;
          if (i >= N) return;
          const res = await call(
            origin,
            'POST',
            '/api/developer/webhooks',
            { url: `${receiver.base}/hook/${i}`, event: 'missed_checkins', retry: true },
            token,
          );
          if (res.status !== 201) throw new Error(`create webhook ${i} failed: ${res.status} ${JSON.stringify(res.body)}`);
          secrets.set(i, res.body.hmac_secret);
          hooks[i] = res.body;
        }
      }),
    );
    R.createSeconds = (Date.now() - t0) / 1000;

    const canary = await call(origin, 'POST', '/api/canary/create', { name: 'webhook fan-out', interval_seconds: INTERVAL_S }, token);
    if (canary.status !== 201) throw new Error(`create canary failed: ${canary.status} ${JSON.stringify(canary.body)}`);
    const deadline = Date.parse(canary.body.deadline);
    R.deadline = deadline;
    say(
      `endpoints created in ${R.createSeconds.toFixed(1)} s; canary ${canary.body.id} due at ${new Date(deadline).toISOString().slice(11, 23)} (in ${((deadline - Date.now()) / 1000).toFixed(0)} s); waiting…`,
    );

    if (CRON) {
      cronTimer = setInterval(async () => {
        try {
          const res = await fetch(`${origin}/cdn-cgi/handler/scheduled`, { signal: AbortSignal.timeout(55_000) });
          await res.text();
          if (res.ok) cronRuns++;
        } catch {}
      }, 60_000);
    }
    const until = deadline + WAIT_MS;
    await sleep(Math.max(0, deadline - Date.now()));
    for (;;) {
      if (receiver.hits.size >= N || Date.now() >= until) break;
      await sleep(250);
    }
    await sleep(1000); // late duplicates, if any
    R.checkedAfterMs = Date.now() - deadline;
    R.load1m = loadavg()[0];
    R.cronRuns = cronRuns;

    const firsts = [];
    let duplicates = 0;
    let unverified = 0;
    for (let i = 0; i < N; i++) {
      const list = receiver.hits.get(i) ?? [];
      if (list.length) firsts.push(list[0].at - deadline);
      if (list.length > 1) duplicates++;
      unverified += list.filter((h) => !h.verified).length;
    }
    R.latency = stats(firsts);
    R.received = firsts.length;
    R.lost = N - firsts.length;
    R.twice = duplicates;
    R.unverified = unverified;

    const [t] = await d1(
      persistDir,
      `SELECT min(fired_at) AS fired_at, min(counts_from) AS counts_from, min(emitted_at) AS emitted_at FROM canary_transitions WHERE canary_id = ${q(canary.body.id)} AND kind = 'missed' AND misses = 1`,
    );
    R.missedAt = t?.fired_at ?? null;
    R.emittedAt = t?.emitted_at ?? null;
    const ids = hooks.map((h) => q(h.id)).join(', ');
    const [d] = await d1(
      persistDir,
      `SELECT min(created_at) AS first, max(created_at) AS last, count(*) AS n FROM webhook_deliveries WHERE webhook_id IN (${ids}) AND event_id NOT LIKE 'test:%'`,
    );
    R.deliveriesCreated = d;
    const attempts = await d1(
      persistDir,
      `SELECT attempt, success, count(*) AS n, avg(duration_ms) AS avg_ms FROM webhook_attempts WHERE webhook_id IN (${ids}) GROUP BY attempt, success`,
    );
    R.attempts = attempts;
    const [span] = await d1(
      persistDir,
      `SELECT min(created_at) AS first, max(created_at) AS last FROM webhook_attempts WHERE webhook_id IN (${ids}) AND attempt = 1`,
    );
    R.attemptSpan = span;
    // Leave nothing armed for later parts.
    await call(origin, 'DELETE', `/api/canary/${canary.body.id}`, undefined, token);
  } finally {
    if (cronTimer) clearInterval(cronTimer);
    await receiver.close();
  }
  return R;
}

export function printWebhookResults(R) {
  console.log(`\n== Webhook fan-out: one missed deadline → ${R.n} endpoints (receiver on 127.0.0.1, through wrangler dev; load ${R.load1m?.toFixed(2)}) ==`);
  const L = R.latency;
  const rel = (v) => (v == null ? 'n/a' : `${v - R.deadline} ms`);
  console.table([
    { measure: 'deadline → receiver answered 200 (per endpoint) p50', value: fmtMs(L.p50) },
    { measure: '… p99', value: fmtMs(L.p99) },
    { measure: '… min / max', value: `${fmtMs(L.min)} / ${fmtMs(L.max)}` },
    { measure: 'received / lost / twice / failed verification', value: `${R.received} / ${R.lost} / ${R.twice} / ${R.unverified}` },
    { measure: 'deadline → missed transition recorded (fired_at)', value: rel(R.missedAt) },
    { measure: 'deadline → event emitted to JOBS (emitted_at)', value: rel(R.emittedAt) },
    {
      measure: `deadline → ${R.deliveriesCreated?.n ?? 0} deliveries written (first … last)`,
      value: `${rel(R.deliveriesCreated?.first)} … ${rel(R.deliveriesCreated?.last)}`,
    },
    { measure: 'deadline → first attempts started (first … last)', value: `${rel(R.attemptSpan?.first)} … ${rel(R.attemptSpan?.last)}` },
  ]);
  console.log(
    `  attempts in D1: ${R.attempts.map((a) => `#${a.attempt} ${a.success ? 'ok' : 'failed'} × ${a.n} (avg ${Number(a.avg_ms).toFixed(1)} ms)`).join(', ') || 'none'}`,
  );
  console.log(
    `  endpoints created in ${R.createSeconds.toFixed(1)} s; canaries deactivated first: ${R.deactivated}; emulated cron runs: ${R.cronRuns}; checked ${(R.checkedAfterMs / 1000).toFixed(1)} s after the deadline`,
  );
}

// Standalone: `node tests/bench/webhooks.mjs`.
if (import.meta.url === `file://${process.argv[1]}`) {
  say('starting wrangler dev (fresh local D1, --test-scheduled)…');
  say(benchRuntime().describe);
  const worker = await startBenchWorker({
    extraArgs: ['--test-scheduled'],
    log: process.env.AFTERWORD_WORKER_LOG ? (l) => console.error(`[wrangler] ${l}`) : undefined,
  });
  let R;
  try {
    R = await runWebhookBench(worker);
  } finally {
    await worker.stop();
  }
  printWebhookResults(R);
}
