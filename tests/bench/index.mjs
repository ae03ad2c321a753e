#!/usr/bin/env node
// `npm run bench`: prints figures, asserts nothing.
//  1. GET /api/health (baseline) and POST /api/auth/login (valid credentials of one pre-registered
//     account) with autocannon on loopback, through `wrangler dev` (its local proxy in front of
//     workerd, so absolute numbers are higher than on Cloudflare's edge). Each at 1 connection
//     (service time) and 10 connections (throughput under load).
//  2. The password KDF's cost per hash: node:crypto.scrypt N=16384, r=8, p=5, keylen 32, 16-byte salt,
//     averaged over ≥20 runs, and the in-Worker cost derived as login p50 − health p50 (1 connection).
//  3. The web app's initial JS for the landing route, gzip level 9 (script type=module + modulepreload
//     of web/dist/index.html), against the 200 KB budget.
//  4. The canary engine (tests/bench/canary.mjs, same Worker): check-in throughput over 1,000 canaries
//     at 50 connections, deadline lateness of 1,000 canaries due in the same 5 s (and, with
//     BENCH_LARGE=1, 10,000 due over 10 minutes), workerd RSS with N armed canaries. BENCH_CANARY=0
//     skips it. The Worker runs with --test-scheduled so the bench can trigger the every-minute cron.
//  5. The release engine (tests/bench/releases.mjs, same Worker, plus a second one with EMAIL_TRANSPORT=smtp):
//     deadline → first email attempt of 1,000 messages whose senders' canaries miss in the same minute,
//     and delivery throughput to the outbox and to an SMTP server on loopback. BENCH_RELEASES=0 skips it.
//  6. Webhook fan-out (tests/bench/webhooks.mjs, same Worker): one canary missing its deadline → 100 signed
//     webhooks to a receiver on loopback; deadline → receiver's 200 per endpoint (p50/p99). BENCH_WEBHOOKS=0 skips it.
//  7. Data export (tests/bench/export.mjs, same Worker): workerd's peak RSS while GET /api/legal/export streams
//     a 1 MB account and a 200 MiB account. BENCH_EXPORT=0 skips it.
//  8. Candles (tests/bench/candles.mjs, same Worker): 1,000 lights from 100 people at once, then again; the
//     exact count. BENCH_CANDLES=0 skips it.
//  9. D1 far away (tests/bench/d1-far.mjs, two Workers of its own): token check-in and a D1-bound read, one at a
//     time, as is and with D1_DELAY_MS=80 added to every D1 round trip. BENCH_D1_FAR=0 skips it.
// 10. Lighthouse (tests/bench/lighthouse.mjs, same Worker): the public pages and the login on a simulated phone
//     on slow 4G, four category scores, LCP, TBT, CLS. BENCH_LIGHTHOUSE=0 skips it.
import autocannon from 'autocannon';
import { randomBytes, scrypt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../support/browser.mjs';
import { printApiKeyResults, runApiKeyBench } from './api-keys.mjs';
import { printCandleResults, runCandleBench } from './candles.mjs';
import { printCanaryResults, runCanaryBench } from './canary.mjs';
import { printD1FarResults, runD1FarBench } from './d1-far.mjs';
import { printExportResults, runExportBench } from './export.mjs';
import { printLighthouseResults, runLighthouseBench } from './lighthouse.mjs';
import { printReleaseResults, runReleaseBench } from './releases.mjs';
import { printWebhookResults, runWebhookBench } from './webhooks.mjs';
import { repoRoot } from '../support/worker-server.mjs';
import { benchRuntime, startBenchWorker } from './bench-worker.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const KDF_RUNS = Number(process.env.BENCH_KDF_RUNS ?? 20);
const CANARY = process.env.BENCH_CANARY !== '0';
const API_KEYS = process.env.BENCH_API_KEYS !== '0';
const RELEASES = process.env.BENCH_RELEASES !== '0';
const WEBHOOKS = process.env.BENCH_WEBHOOKS !== '0';
const EXPORT = process.env.BENCH_EXPORT !== '0';
const CANDLES = process.env.BENCH_CANDLES !== '0';
const D1_FAR = process.env.BENCH_D1_FAR !== '0';
const LIGHTHOUSE = process.env.BENCH_LIGHTHOUSE !== '0';
const JS_BUDGET = 200 * 1024;

const fmtMs = (v) => (v == null ? 'n/a' : `${Number(v).toFixed(1)} ms`);
const fmtKB = (b) => `${(b / 1024).toFixed(1)} KB`;

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ timeout: 30, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

async function measureKdf() {
  const params = { N: 16384, r: 8, p: 5, maxmem: 64 * 1024 * 1024 };
  const once = () =>
    new Promise((res, rej) => {
      const t = process.hrtime.bigint();
      scrypt('Correct-Horse-Battery-42', randomBytes(16), 32, params, (err) => (err ? rej(err) : res(Number(process.hrtime.bigint() - t) / 1e6)));
    });
  await once(); // warm-up
  const times = [];
  for (let i = 0; i < KDF_RUNS; i++) times.push(await once());
  times.sort((a, b) => a - b);
  return {
    runs: KDF_RUNS,
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    median: times[Math.floor(times.length / 2)],
    min: times[0],
    max: times.at(-1),
  };
}

function measureInitialJs() {
  const dist = join(repoRoot, 'web', 'dist');
  const indexPath = join(dist, 'index.html');
  if (!existsSync(indexPath)) return { error: `${indexPath} missing (build the web app first)` };
  const html = readFileSync(indexPath, 'utf8');
  const srcs = new Set();
  for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
    if (/type=["']?module/i.test(tag)) {
      const m = tag.match(/\bsrc=["']([^"']+)["']/i);
      if (m) srcs.add(m[1]);
    }
  }
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    if (/rel=["']?modulepreload/i.test(tag)) {
      const m = tag.match(/\bhref=["']([^"']+)["']/i);
      if (m) srcs.add(m[1]);
    }
  }
  const files = [...srcs].map((src) => {
    const buf = readFileSync(join(dist, new URL(src, 'http://x/').pathname));
    return { src, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
  });
  return { files, raw: files.reduce((a, f) => a + f.raw, 0), gzip: files.reduce((a, f) => a + f.gzip, 0) };
}

/** What Chromium actually fetches as script when it opens / (includes lazily loaded route chunks). */
async function measureLoadedJs(origin) {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const urls = new Set();
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script' && r.url().startsWith(origin)) urls.add(new URL(r.url()).pathname);
    });
    await page.goto(`${origin}/`, { waitUntil: 'networkidle' });
    const dist = join(repoRoot, 'web', 'dist');
    const files = [...urls].map((src) => {
      const buf = readFileSync(join(dist, src));
      return { src, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
    });
    return { files, raw: files.reduce((a, f) => a + f.raw, 0), gzip: files.reduce((a, f) => a + f.gzip, 0) };
  } finally {
    await browser.close();
  }
}

function row(name, r) {
  return {
    name,
    connections: r.connections,
    seconds: r.duration,
    requests: r.requests.total,
    'req/s': r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

const kdf = await measureKdf();
const js = measureInitialJs();

console.log('bench: starting wrangler dev (fresh local D1)…');
console.log(`bench: ${benchRuntime().describe}`);
const worker = await startBenchWorker({
  extraArgs: ['--test-scheduled'],
  log: process.env.AFTERWORD_WORKER_LOG ? (l) => console.error(`[wrangler] ${l}`) : undefined,
});
const results = [];
let canary = null;
let releases = null;
let webhooks = null;
let candles = null;
let exported = null;
let apiKeys = null;
let lighthouse = null;
try {
  const email = `bench.${Date.now()}@example.test`;
  const password = 'Correct-Horse-Battery-42';
  const reg = await fetch(`${worker.origin}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, data_policy_region: 'INTL-General' }),
  });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${await reg.text()}`);
  const loginReq = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) };
  const check = await fetch(`${worker.origin}/api/auth/login`, loginReq);
  if (check.status !== 200) throw new Error(`login failed: ${check.status} ${await check.text()}`);

  const health = { url: `${worker.origin}/api/health` };
  const login = { url: `${worker.origin}/api/auth/login`, ...loginReq };
  await cannon({ ...health, connections: 2, duration: 2 }); // warm-up
  const serial = Math.max(3, Math.round(DURATION / 2));
  results.push(row('GET /api/health', await cannon({ ...health, connections: 1, duration: serial })));
  results.push(row('POST /api/auth/login', await cannon({ ...login, connections: 1, duration: serial })));
  results.push(row('GET /api/health', await cannon({ ...health, connections: CONNECTIONS, duration: DURATION })));
  results.push(row('POST /api/auth/login', await cannon({ ...login, connections: CONNECTIONS, duration: DURATION })));
  if (!js.error) js.loaded = await measureLoadedJs(worker.origin).catch((e) => ({ error: e.message }));
  // Before the engines' benches fill the Worker: a first visit meets an idle server.
  if (LIGHTHOUSE) lighthouse = await runLighthouseBench(worker.origin).catch((e) => ({ error: e.message }));
  if (API_KEYS)
    apiKeys = await runApiKeyBench(worker, { accessToken: (await check.json()).access_token, userId: (await reg.json()).id, connections: CONNECTIONS });
  if (CANARY) canary = await runCanaryBench(worker);
  if (RELEASES) releases = await runReleaseBench(worker);
  if (WEBHOOKS) webhooks = await runWebhookBench(worker);
  if (CANDLES) candles = await runCandleBench(worker);
  if (EXPORT) exported = await runExportBench(worker);
} finally {
  await worker.stop();
}
const d1Far = D1_FAR ? await runD1FarBench() : null;

console.log('\n== HTTP latency and throughput: autocannon → 127.0.0.1 → wrangler dev (local proxy) → workerd, local D1 (SQLite) ==');
console.table(results.map((r) => ({ ...r, 'req/s': Number(r['req/s'].toFixed(1)), p50: fmtMs(r.p50), p99: fmtMs(r.p99) })));

const [h1, l1] = results;
console.log('\n== Password KDF (scrypt N=16384, r=8, p=5, keylen 32, 16-byte salt) ==');
console.table([
  { measure: `node:crypto.scrypt in Node ${process.version}, mean of ${kdf.runs}`, value: fmtMs(kdf.mean) },
  { measure: 'node:crypto.scrypt median / min / max', value: `${fmtMs(kdf.median)} / ${fmtMs(kdf.min)} / ${fmtMs(kdf.max)}` },
  { measure: 'in-Worker login cost: login p50 − health p50 (1 connection)', value: fmtMs(l1.p50 - h1.p50) },
  { measure: 'login throughput ceiling implied by the Node KDF (1 thread)', value: `${(1000 / kdf.mean).toFixed(1)} req/s` },
]);

console.log('\n== Web app initial JS for the landing route (gzip -9 of module scripts + modulepreloads in web/dist/index.html) ==');
if (js.error) console.log(`  ${js.error}`);
else {
  console.table(js.files.map((f) => ({ file: f.src, raw: fmtKB(f.raw), gzip: fmtKB(f.gzip) })));
  const pct = ((js.gzip / JS_BUDGET) * 100).toFixed(0);
  console.log(`  total: ${fmtKB(js.raw)} raw, ${fmtKB(js.gzip)} gzipped — ${pct}% of the 200 KB budget (${js.gzip <= JS_BUDGET ? 'within' : 'OVER'} budget)`);
  if (js.loaded?.error) console.log(`  (Chromium cross-check failed: ${js.loaded.error})`);
  else if (js.loaded) {
    console.log(
      `  cross-check, scripts Chromium fetched opening / (incl. lazy route chunks): ${js.loaded.files.length} files, ${fmtKB(js.loaded.raw)} raw, ${fmtKB(js.loaded.gzip)} gzipped (${((js.loaded.gzip / JS_BUDGET) * 100).toFixed(0)}% of budget)`,
    );
  }
}

if (lighthouse?.error) console.log(`\n== Lighthouse: failed (${lighthouse.error}) ==`);
else if (lighthouse) printLighthouseResults(lighthouse);
else console.log('\n== Lighthouse: skipped (BENCH_LIGHTHOUSE=0) ==');

if (canary) printCanaryResults(canary);
else console.log('\n== Canary engine: skipped (BENCH_CANARY=0) ==');

if (releases) printReleaseResults(releases);
else console.log('\n== Release engine: skipped (BENCH_RELEASES=0) ==');

if (apiKeys) printApiKeyResults(apiKeys);
else console.log('\n== API key vs session: skipped (BENCH_API_KEYS=0) ==');

if (webhooks) printWebhookResults(webhooks);
if (exported) printExportResults(exported);
else console.log('\n== Webhook fan-out: skipped (BENCH_WEBHOOKS=0) ==');
if (candles) printCandleResults(candles);
else console.log('\n== Candles: skipped (BENCH_CANDLES=0) ==');
if (d1Far) printD1FarResults(d1Far);
else console.log('\n== D1 far away: skipped (BENCH_D1_FAR=0) ==');
