#!/usr/bin/env node
// Canary-engine benchmarks (docs/performance.md). Prints figures, asserts nothing.
// Used by tests/bench/index.mjs on its Worker; `node tests/bench/canary.mjs` runs it alone.
//
// Everything goes through the same path: client on 127.0.0.1 → `wrangler dev` (its local proxy) →
// workerd, local D1 (SQLite) and local Durable Objects. Each figure is printed next to the same run's
// baseline, a trivial `GET /api/health` of the same Worker through the same proxy.
//  1. Check-in throughput and p50/p99 at 50 connections, rotating over 1,000 canaries' tokens
//     (POST /api/canary/checkin), against GET /api/health at 50 connections, in alternating rounds.
//  2. Deadline lateness (fired_at − due_at of each canary's kind='missed', misses=1 row in D1):
//     (a) 1,000 canaries due within the same 5 s; (b) with BENCH_SURGE=1 only (adds ~6 min), 10,000
//     due within the same 10 s (goal: every one recorded within 30 s); (c) with BENCH_LARGE=1 only
//     (adds ~15 min), 10,000 canaries due uniformly over 10 minutes. None lost, none twice, alarm vs reconciler.
//     The every-minute cron is emulated: GET /cdn-cgi/handler/scheduled every 60 s while canaries are
//     armed (BENCH_CRON=0 turns that off), since `wrangler dev` runs crons only when asked.
//  3. RSS (VmRSS) of the workerd process(es) under wrangler dev with 0, 1,000 (and 12,000) armed canaries.
// Env: BENCH_SURGE=1, BENCH_LARGE=1, BENCH_DEADLINES=0 (check-in part only, for iterating on it), BENCH_CRON=0, BENCH_DURATION (s per autocannon run, default 10), BENCH_ROUNDS (3), BENCH_CREATE_CONCURRENCY (20),
//      BENCH_MARGIN (s after the last deadline before counting, default 30).
import autocannon from 'autocannon';
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { d1, objectsCheckIns } from '../support/d1.mjs';
import { benchRuntime, startBenchWorker } from './bench-worker.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const LARGE = process.env.BENCH_LARGE === '1';
const CRON = process.env.BENCH_CRON !== '0';
const CREATE_CONCURRENCY = Number(process.env.BENCH_CREATE_CONCURRENCY ?? 20);
const MARGIN_MS = Number(process.env.BENCH_MARGIN ?? 30) * 1000;
const CHECKIN_CANARIES = 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BURST = 1000;
const LARGE_N = 10_000;
const SURGE = process.env.BENCH_SURGE === '1';
const DEADLINES = process.env.BENCH_DEADLINES !== '0';
const SURGE_N = 10_000;
const SURGE_SPREAD_MS = 10_000;
const LARGE_SPREAD_MS = 10 * 60 * 1000;
const PASSWORD = 'Correct-Horse-Battery-42';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// The 1-min load average in every line: this is a 2-core machine, and anything else running skews the figures.
const say = (msg) => console.log(`bench[canary] ${new Date().toISOString().slice(11, 19)} (load ${loadavg()[0].toFixed(2)}) ${msg}`);
const fmtMs = (v) => (v == null || Number.isNaN(v) ? 'n/a' : `${Number(v).toFixed(1)} ms`);
const fmtMB = (kb) => (kb == null ? 'n/a' : `${(kb / 1024).toFixed(1)} MB`);

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ timeout: 30, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/** p in [0,100] of a sorted array (nearest rank). */
function pct(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** VmRSS (kB) of every workerd process in the process group `pgid` (wrangler dev is its leader). */
export function workerdRss(pgid) {
  const procs = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' '); // state ppid pgrp …
      if (Number(fields[2]) !== pgid || !comm.startsWith('workerd')) continue;
      const m = readFileSync(`/proc/${name}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (m) procs.push({ pid: Number(name), rssKb: Number(m[1]), cmd: cmd.slice(1).join(' ').slice(0, 80) });
    } catch {} // the process went away
  }
  return { procs, totalKb: procs.reduce((a, p) => a + p.rssKb, 0) };
}

/**
 * Samples the open files of the process group's workerd processes every 250 ms until stopped: each live
 * Durable Object holds three (its SQLite database, -wal and -shm), and the process's limit is what caps
 * how many objects can be awake at once here (docs/performance.md). Returns the peak and the limit.
 */
function openFilesSampler(pgid) {
  let peak = 0;
  let limit = null;
  const sample = () => {
    for (const p of workerdRss(pgid).procs) {
      try {
        peak = Math.max(peak, readdirSync(`/proc/${p.pid}/fd`).length);
        limit ??= Number(readFileSync(`/proc/${p.pid}/limits`, 'utf8').match(/^Max open files\s+(\d+)/m)?.[1]) || null;
      } catch {} // the process went away
    }
  };
  const timer = setInterval(sample, 250);
  return {
    stop() {
      clearInterval(timer);
      return { peak, limit };
    },
  };
}

async function json(res) {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function post(origin, path, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${origin}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: await json(res) };
}

/**
 * Creates `n` canaries with at most CREATE_CONCURRENCY requests in flight. `spec(i)` is called just
 * before request i is sent and returns `{interval_seconds, name}`. Returns the created canaries with
 * their client-side latency.
 */
async function createMany(origin, session, n, spec) {
  const out = new Array(n);
  let next = 0;
  const t0 = Date.now();
  async function lane() {
    for (;;) {
      const i = next++;
      if (i >= n) return;
      const input = spec(i);
      for (let attempt = 0; ; attempt++) {
        const t = performance.now();
        const res = await post(origin, '/api/canary/create', input, session).catch((e) => ({ status: 0, body: String(e) }));
        if (res.status === 201) {
          out[i] = { ...res.body, input, ms: performance.now() - t };
          break;
        }
        if (attempt >= 2) throw new Error(`create canary ${i} failed: ${res.status} ${JSON.stringify(res.body)}`);
        await sleep(200);
      }
    }
  }
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, lane));
  const seconds = (Date.now() - t0) / 1000;
  const lat = out.map((c) => c.ms).sort((a, b) => a - b);
  return { canaries: out, seconds, perSecond: n / seconds, p50: pct(lat, 50), p99: pct(lat, 99) };
}

/** The production cron runs every minute; under wrangler dev it runs only when this URL is fetched. */
function cronTicker(origin) {
  let runs = 0;
  let failures = 0;
  const tick = async () => {
    try {
      const res = await fetch(`${origin}/cdn-cgi/handler/scheduled`, { signal: AbortSignal.timeout(55_000) });
      await res.text();
      if (res.ok) runs++;
      else failures++;
    } catch {
      failures++;
    }
  };
  const timer = setInterval(tick, 60_000);
  return { stop: () => clearInterval(timer), stats: () => ({ runs, failures }), tick };
}

/** Lateness of the misses=1 rows of the canaries named `prefix…`, plus loss/duplicate counts. */
async function lateness(persistDir, prefix, expected) {
  const like = `'${prefix}%'`;
  const rows = await d1(
    persistDir,
    `SELECT t.canary_id AS id, t.due_at AS due, t.fired_at AS fired, t.recorded_by AS by FROM canary_transitions t JOIN canaries c ON c.id = t.canary_id WHERE c.name LIKE ${like} AND t.kind = 'missed' AND t.misses = 1`,
  );
  const [dups] = await d1(
    persistDir,
    `SELECT count(*) AS n FROM (SELECT t.canary_id, t.kind, t.misses FROM canary_transitions t JOIN canaries c ON c.id = t.canary_id WHERE c.name LIKE ${like} GROUP BY t.canary_id, t.kind, t.misses HAVING count(*) > 1)`,
  );
  const kinds = await d1(
    persistDir,
    `SELECT t.kind AS kind, t.misses AS misses, t.recorded_by AS by, count(*) AS n, avg(t.fired_at - t.due_at) AS avg_late, max(t.fired_at - t.due_at) AS max_late, max(t.due_at) - min(t.due_at) AS due_spread FROM canary_transitions t JOIN canaries c ON c.id = t.canary_id WHERE c.name LIKE ${like} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  );
  const late = rows.map((r) => r.fired - r.due).sort((a, b) => a - b);
  const byAlarm = rows.filter((r) => r.by === 'alarm').length;
  return {
    load1m: loadavg()[0],
    expected,
    recorded: rows.length,
    // From the same read as `recorded`: the projection may still be arriving while the next queries run.
    lost: expected - new Set(rows.map((r) => r.id)).size,
    duplicated: dups.n,
    byAlarm,
    byReconciler: rows.length - byAlarm,
    p50: pct(late, 50),
    p99: pct(late, 99),
    max: late.at(-1) ?? null,
    min: late[0] ?? null,
    over500: late.filter((v) => v > 500).length,
    over1000: late.filter((v) => v > 1000).length,
    kinds,
  };
}

/** Waits until every canary named `prefix…` has its misses=1 row, or until `untilMs`. */
async function waitRecorded(persistDir, prefix, expected, untilMs) {
  for (;;) {
    const [r] = await d1(
      persistDir,
      `SELECT count(*) AS n FROM canary_transitions t JOIN canaries c ON c.id = t.canary_id WHERE c.name LIKE '${prefix}%' AND t.kind = 'missed' AND t.misses = 1`,
    );
    if (r.n >= expected || Date.now() >= untilMs) return r.n;
    await sleep(10_000);
  }
}

/**
 * Creates `n` canaries whose deadlines are spread uniformly over [W, W + spreadMs], with W chosen so
 * that every interval is at least 60 s and creation is finished `quietMs` before the first grace
 * reminder. Interval = round((target − now) / 1 s), so a deadline lands within ~0.5 s (+ request
 * latency) of its target; targets keep 0.5 s clear of the window edges.
 */
async function createDueIn(origin, session, n, spreadMs, prefix, createRate) {
  const creationMs = (n / createRate) * 1000 * 1.3 + 5000;
  const start = Date.now();
  // Earliest W: creation must end well before the earliest grace reminder (20 % of ≥60 s before W).
  const windowStart = start + Math.max(90_000, creationMs + 60_000);
  const inner = spreadMs - 1000;
  const made = await createMany(origin, session, n, (i) => {
    const target = windowStart + 500 + (inner * (i + 0.5)) / n;
    return { name: `${prefix}${i}`, interval_seconds: Math.max(60, Math.round((target - Date.now()) / 1000)) };
  });
  const deadlines = made.canaries.map((c) => Date.parse(c.deadline)).sort((a, b) => a - b);
  const intervals = made.canaries.map((c) => c.input.interval_seconds).sort((a, b) => a - b);
  return { ...made, windowStart, first: deadlines[0], last: deadlines.at(-1), minInterval: intervals[0], maxInterval: intervals.at(-1) };
}

/** Deletes the given canaries (which also stops their objects), CREATE_CONCURRENCY at a time. */
async function deleteCanaries(origin, session, canaries) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CREATE_CONCURRENCY }, async () => {
      for (let i = next++; i < canaries.length; i = next++) {
        const res = await fetch(`${origin}/api/canary/${canaries[i].id}`, { method: 'DELETE', headers: { authorization: `Bearer ${session}` } });
        await res.text();
        if (res.status !== 200) throw new Error(`delete canary failed: ${res.status}`);
      }
    }),
  );
}

/**
 * Runs all canary benchmarks on a running Worker (`startBenchWorker({ extraArgs: ['--test-scheduled'] })`)
 * and returns the figures; `printCanaryResults` prints them.
 */
export async function runCanaryBench(worker) {
  const { origin, persistDir, pid } = worker;
  const R = { large: LARGE, surge: SURGE, cron: CRON, connections: 50, duration: DURATION, memory: [], runtime: benchRuntime().describe };
  const memory = async (label, armed) => {
    await sleep(5000); // let in-flight work settle
    const m = workerdRss(pid);
    R.memory.push({ load1m: loadavg()[0], label, armed, totalKb: m.totalKb, procs: m.procs.length, each: m.procs.map((p) => fmtMB(p.rssKb)).join(' + ') });
    say(`RSS with ${armed} armed canaries: ${fmtMB(m.totalKb)} (workerd ${m.procs.map((p) => `pid ${p.pid} ${fmtMB(p.rssKb)}`).join(', ')})`);
  };

  // An account on the Pro plan (unlimited canaries) and its session.
  const email = `bench.canary.${Date.now()}@example.test`;
  const reg = await post(origin, '/api/auth/register', { email, password: PASSWORD, data_policy_region: 'INTL-General' });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  await d1(persistDir, `UPDATE users SET plan = 'pro' WHERE email = '${email}'`);
  const login = await post(origin, '/api/auth/login', { email, password: PASSWORD });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  const session = login.body.access_token;

  await cannon({ url: `${origin}/api/health`, connections: 2, duration: 2 }); // warm-up
  await memory('before any canary', 0);

  // 1,000 canaries for the check-in benchmark: 1-day interval, so none falls due during the run.
  say(`creating ${CHECKIN_CANARIES} canaries (interval 1 day), ${CREATE_CONCURRENCY} in flight…`);
  const pool = await createMany(origin, session, CHECKIN_CANARIES, (i) => ({ name: `pool-${i}`, interval_seconds: 86_400 }));
  R.create = { n: CHECKIN_CANARIES, seconds: pool.seconds, perSecond: pool.perSecond, p50: pool.p50, p99: pool.p99 };
  say(`created in ${pool.seconds.toFixed(1)} s (${pool.perSecond.toFixed(0)}/s, p50 ${fmtMs(pool.p50)}, p99 ${fmtMs(pool.p99)})`);
  const [seen] = await d1(persistDir, `SELECT count(*) AS n, sum(timer_due_at IS NOT NULL) AS armed FROM canaries WHERE name LIKE 'pool-%'`);
  R.d1Visible = seen;
  say(`D1 read through wrangler d1 execute sees ${seen.n} pool canaries, ${seen.armed} with an armed timer`);
  await memory('1,000 armed (1-day interval)', CHECKIN_CANARIES);

  // 1. Check-in throughput vs the trivial endpoint, same Worker, same proxy, same connections.
  const tokens = pool.canaries.map((c) => c.token);
  let k = 0;
  const checkinReq = {
    url: origin,
    connections: 50,
    duration: DURATION,
    requests: [
      {
        method: 'POST',
        path: '/api/canary/checkin',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ token: tokens[k++ % tokens.length] }) }),
      },
    ],
  };
  // Alternating rounds (health, check-in, health, check-in, …, health): each check-in run is compared
  // with the health runs right before and after it, and the median round is reported, so a load spike
  // from elsewhere on the machine moves one round, not the result.
  say(`check-in benchmark: ${ROUNDS} rounds of GET /api/health / POST /api/canary/checkin, ${DURATION} s each, 50 connections, ending with GET /api/health…`);
  const warmUp = await cannon({ ...checkinReq, duration: 2 }); // warm-up of the check-in path
  const sum = (r) => ({
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  });
  const health = [sum(await cannon({ url: `${origin}/api/health`, connections: 50, duration: DURATION }))];
  const checkins = [];
  for (let i = 0; i < ROUNDS; i++) {
    checkins.push(sum(await cannon(checkinReq)));
    health.push(sum(await cannon({ url: `${origin}/api/health`, connections: 50, duration: DURATION })));
  }
  const rounds = checkins.map((ci, i) => {
    const base = { rps: (health[i].rps + health[i + 1].rps) / 2, p99: (health[i].p99 + health[i + 1].p99) / 2 };
    return { throughput: ci.rps / base.rps, p99x: ci.p99 / base.p99 };
  });
  R.checkin = { health, checkins, rounds, tokensUsed: Math.min(k, tokens.length) };
  // Every answered check-in is in its canary's object, the record (D1 stores no feed row per token check-in).
  try {
    R.checkin.recorded = objectsCheckIns(persistDir);
  } catch {
    R.checkin.recorded = null;
  }
  R.checkin.answered = warmUp.requests.total - warmUp.non2xx + checkins.reduce((n, ci) => n + ci.total - ci.non2xx, 0);
  if (!DEADLINES) return R;

  // Emulate the production cron (every minute) from here on.
  const cron = CRON ? cronTicker(origin) : null;
  if (cron) {
    await cron.tick();
    if (cron.stats().runs !== 1) say('warning: GET /cdn-cgi/handler/scheduled did not answer 2xx (is --test-scheduled on?)');
  }

  try {
    // 2a. 1,000 canaries due within the same 5 seconds.
    say(`burst: creating ${BURST} canaries due within one 5 s window…`);
    const b = await createDueIn(origin, session, BURST, 5000, 'burst-', pool.perSecond);
    R.burstCreate = b;
    say(
      `burst: created in ${b.seconds.toFixed(1)} s; deadlines ${new Date(b.first).toISOString()} … +${((b.last - b.first) / 1000).toFixed(2)} s; intervals ${b.minInterval}–${b.maxInterval} s`,
    );
    await memory('2,000 armed (1,000 pool + 1,000 burst, before they fire)', CHECKIN_CANARIES + BURST);
    const waitUntil = b.last + MARGIN_MS;
    say(`burst: waiting ${((waitUntil - Date.now()) / 1000).toFixed(0)} s for the window + ${MARGIN_MS / 1000} s margin…`);
    await sleep(Math.max(0, waitUntil - Date.now()));
    R.burst = await lateness(persistDir, 'burst-', BURST);
    R.burst.checkedAfterMs = Date.now() - b.last;
    if (R.burst.lost > 0) {
      say(`burst: ${R.burst.lost} without a missed row yet; waiting up to 150 s more (reconciler)…`);
      await waitRecorded(persistDir, 'burst-', BURST, Date.now() + 150_000);
      R.burstEventually = await lateness(persistDir, 'burst-', BURST);
      R.burstEventually.checkedAfterMs = Date.now() - b.last;
    }
    say(`burst: p50 ${fmtMs(R.burst.p50)}, p99 ${fmtMs(R.burst.p99)}, max ${fmtMs(R.burst.max)}, lost ${R.burst.lost}, twice ${R.burst.duplicated}`);

    // 2b. 10,000 canaries due within 10 s (BENCH_SURGE=1), then 2c. 10,000 due uniformly over 10 minutes
    // (BENCH_LARGE=1). Each run's canaries would keep missing (misses 2, 3, …) an interval later, so the
    // canaries of the run before are deleted first (which also stops their timers): each run measures
    // its own load.
    let previous = b.canaries;
    const spreadRun = async (key, { n, spreadMs, what }) => {
      say(`${key}: deleting the ${previous.length} canaries of the run before first…`);
      await deleteCanaries(origin, session, previous);
      say(`${key}: creating ${n} canaries due ${what}…`);
      const L = await createDueIn(origin, session, n, spreadMs, `${key}-`, pool.perSecond);
      previous = L.canaries;
      R[`${key}Create`] = L;
      say(
        `${key}: created in ${L.seconds.toFixed(1)} s (${L.perSecond.toFixed(0)}/s); deadlines ${new Date(L.first).toISOString()} … +${((L.last - L.first) / 1000).toFixed(1)} s; intervals ${L.minInterval}–${L.maxInterval} s`,
      );
      await memory(`${(CHECKIN_CANARIES + n).toLocaleString('en')} armed (1,000 pool + ${n.toLocaleString('en')} before they fire)`, CHECKIN_CANARIES + n);
      const until = L.last + MARGIN_MS;
      say(`${key}: waiting ${((until - Date.now()) / 1000).toFixed(0)} s for the window + ${MARGIN_MS / 1000} s margin…`);
      const files = openFilesSampler(pid);
      while (Date.now() < until) {
        await sleep(Math.min(60_000, until - Date.now()));
        if (Date.now() < until) say(`${key}: ${((until - Date.now()) / 1000).toFixed(0)} s to go`);
      }
      const run = await lateness(persistDir, `${key}-`, n);
      run.checkedAfterMs = Date.now() - L.last;
      run.openFiles = files.stop();
      R[`${key}Run`] = run;
      if (run.lost > 0) {
        say(`${key}: ${run.lost} without a missed row yet; waiting up to 150 s more (reconciler)…`);
        await waitRecorded(persistDir, `${key}-`, n, Date.now() + 150_000);
        R[`${key}Eventually`] = await lateness(persistDir, `${key}-`, n);
        R[`${key}Eventually`].checkedAfterMs = Date.now() - L.last;
      }
      say(`${key}: p50 ${fmtMs(run.p50)}, p99 ${fmtMs(run.p99)}, max ${fmtMs(run.max)}, lost ${run.lost}, twice ${run.duplicated}`);
      say(`${key}: open files of the Worker's runtime while they fell due: peak ${run.openFiles.peak} (limit ${run.openFiles.limit ?? 'unknown'})`);
    };
    if (SURGE) await spreadRun('surge', { n: SURGE_N, spreadMs: SURGE_SPREAD_MS, what: 'within one 10 s window' });
    if (LARGE) await spreadRun('large', { n: LARGE_N, spreadMs: LARGE_SPREAD_MS, what: 'uniformly over 10 minutes' });
  } finally {
    if (cron) {
      cron.stop();
      R.cronRuns = cron.stats();
    }
  }
  const [armedNow] = await d1(persistDir, `SELECT count(*) AS n FROM canaries WHERE active = 1 AND timer_due_at IS NOT NULL`);
  await memory('end of run (after the deadlines fired; re-armed for the next interval)', armedNow.n);
  const [all] = await d1(
    persistDir,
    `SELECT count(*) AS n FROM (SELECT canary_id, cycle_deadline, kind, misses FROM canary_transitions GROUP BY 1, 2, 3, 4 HAVING count(*) > 1)`,
  );
  R.duplicatesAnyKind = all.n;
  return R;
}

function latenessRow(name, L) {
  return {
    case: name,
    p50: fmtMs(L.p50),
    p99: fmtMs(L.p99),
    max: fmtMs(L.max),
    '>500 ms': L.over500,
    '>1 s': L.over1000,
    recorded: `${L.recorded}/${L.expected}`,
    lost: L.lost,
    twice: L.duplicated,
    'alarm/reconciler': `${L.byAlarm}/${L.byReconciler}`,
    'counted after': `${(L.checkedAfterMs / 1000).toFixed(0)} s`,
    'load (1 min)': L.load1m.toFixed(2),
  };
}

export function printCanaryResults(R) {
  const c = R.checkin;
  console.log(
    `\n== Canary check-in: autocannon, ${R.connections} connections, ${R.duration} s each → 127.0.0.1 → wrangler dev (local proxy) → workerd, local D1 ==`,
  );
  console.log(
    '   baseline = GET /api/health of the same Worker through the same wrangler dev proxy, alternating with the check-in runs; each round compares a check-in run with the health runs just before and after it',
  );
  console.log(`   runtime: ${R.runtime}`);
  const r = (name, x) => ({
    run: name,
    'req/s': Number(x.rps.toFixed(1)),
    p50: fmtMs(x.p50),
    p99: fmtMs(x.p99),
    requests: x.total,
    errors: x.errors,
    non2xx: x.non2xx,
  });
  const table = [r('GET /api/health', c.health[0])];
  c.checkins.forEach((ci, i) => {
    table.push(r(`POST /api/canary/checkin (${CHECKIN_CANARIES} tokens), round ${i + 1}`, ci), r('GET /api/health', c.health[i + 1]));
  });
  console.table(table);
  console.table(
    c.rounds.map((x, i) => ({
      round: i + 1,
      'check-in req/s ÷ baseline req/s': `${(x.throughput * 100).toFixed(0)} %`,
      'check-in p99 ÷ baseline p99': `${x.p99x.toFixed(2)}×`,
    })),
  );
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const tp = med(c.rounds.map((x) => x.throughput));
  const p99x = med(c.rounds.map((x) => x.p99x));
  console.log(`  check-in throughput = ${(tp * 100).toFixed(0)} % of the baseline's (median round; goal ≥ 60 %: ${tp >= 0.6 ? 'met' : 'NOT met'})`);
  console.log(`  check-in p99 = ${p99x.toFixed(2)}× the baseline's p99 (median round; goal < 2×: ${p99x < 2 ? 'met' : 'NOT met'})`);
  // Every answered check-in is held by its canary's object: a few more than answers are the requests in flight when
  // each autocannon run stopped, which the Worker answered but autocannon never read.
  console.log(
    `  check-ins answered 2xx (warm-up and rounds): ${c.answered}; held by the canaries' objects after the last /api/health round: ${c.recorded ?? 'n/a'} (connections in flight at each run's end: up to ${R.connections} more)`,
  );
  console.log(
    `  canary creation (sets up the row and arms its Durable Object), ${CREATE_CONCURRENCY} in flight: ${R.create.perSecond.toFixed(0)}/s, p50 ${fmtMs(R.create.p50)}, p99 ${fmtMs(R.create.p99)}`,
  );

  if (!R.burst) return console.log('\n(deadline lateness and memory: skipped, BENCH_DEADLINES=0)');
  console.log(`\n== Deadline lateness: fired_at − due_at of each canary's first missed row (kind='missed', misses=1), local D1 ==`);
  console.log(
    `   cron reconciler: ${R.cron ? `triggered every 60 s through /cdn-cgi/handler/scheduled (${R.cronRuns?.runs ?? 0} runs, ${R.cronRuns?.failures ?? 0} failed)` : 'NOT triggered (BENCH_CRON=0): alarms only'}`,
  );
  const b = R.burstCreate;
  console.log(
    `   (a) ${BURST} deadlines within ${((b.last - b.first) / 1000).toFixed(2)} s (intervals ${b.minInterval}–${b.maxInterval} s, created in ${b.seconds.toFixed(1)} s)`,
  );
  const spreadLine = (key, label, flag) => {
    const L = R[`${key}Create`];
    if (!L) return console.log(`   ${label}: skipped (run with ${flag})`);
    console.log(
      `   ${label}: ${L.canaries.length} deadlines over ${((L.last - L.first) / 1000).toFixed(1)} s (intervals ${L.minInterval}–${L.maxInterval} s, created in ${L.seconds.toFixed(1)} s at ${L.perSecond.toFixed(0)}/s)`,
    );
  };
  spreadLine('surge', '(b) 10,000 due in 10 s', 'BENCH_SURGE=1; adds about 6 minutes');
  spreadLine('large', '(c) 10,000 over 10 minutes', 'BENCH_LARGE=1; adds about 15 minutes');
  const rows = [latenessRow(`${BURST} due in 5 s`, R.burst)];
  if (R.burstEventually) rows.push(latenessRow(`${BURST} due in 5 s (later)`, R.burstEventually));
  if (R.surgeRun) rows.push(latenessRow(`${SURGE_N} due in 10 s`, R.surgeRun));
  if (R.surgeEventually) rows.push(latenessRow(`${SURGE_N} due in 10 s (later)`, R.surgeEventually));
  if (R.largeRun) rows.push(latenessRow(`${LARGE_N} over 10 min`, R.largeRun));
  if (R.largeEventually) rows.push(latenessRow(`${LARGE_N} over 10 min (later)`, R.largeEventually));
  console.table(rows);
  console.log('  the goal for 1,000 due in 5 s: p99 ≤ 250 ms, max ≤ 500 ms, none lost, none twice');
  if (R.surgeRun) console.log('  the goal for 10,000 due in 10 s: every one recorded within 30 s (max late), none lost, none twice');
  for (const [label, L] of [
    ['10,000 due in 10 s', R.surgeRun],
    ['10,000 over 10 min', R.largeRun],
  ]) {
    if (!L?.openFiles) continue;
    const { peak, limit } = L.openFiles;
    console.log(
      `  ${label}: the Worker's runtime had at most ${peak} files open (limit ${limit ?? 'unknown'}; three per live Durable Object${limit && peak >= limit ? ' — AT THE LIMIT: wakes failed to open their storage and were retried late' : ''})`,
    );
  }
  console.log(`  same (canary, cycle, kind, misses) recorded twice, any canary, any kind: ${R.duplicatesAnyKind}`);
  const kindRows = [];
  for (const [name, L] of [
    ['burst', R.burst],
    ['surge', R.surgeRun],
    ['large', R.largeRun],
  ]) {
    if (!L) continue;
    for (const k of L.kinds)
      kindRows.push({
        set: name,
        kind: k.kind,
        misses: k.misses,
        recorded_by: k.by,
        rows: k.n,
        'mean late': fmtMs(k.avg_late),
        'max late': fmtMs(k.max_late),
        'due over': `${(k.due_spread / 1000).toFixed(1)} s`,
      });
  }
  console.log('  every transition recorded for those canaries (due_at → fired_at):');
  console.table(kindRows);
  console.log('  baseline of this run: GET /api/health at 50 connections above (same Worker, same proxy)');

  console.log('\n== Memory: VmRSS of the workerd process(es) under wrangler dev (local runtime; Durable Objects, D1 and the Worker in one runtime) ==');
  console.table(R.memory.map((m) => ({ state: m.label, 'armed canaries': m.armed, RSS: fmtMB(m.totalKb), 'per workerd process': m.each })));
  const m0 = R.memory[0];
  for (const m of R.memory.slice(1)) {
    if (!m.armed) continue;
    console.log(`  growth 0 → ${m.armed}: ${fmtMB(m.totalKb - m0.totalKb)}, ${((m.totalKb - m0.totalKb) / m.armed).toFixed(2)} kB per canary`);
  }
  if (!R.large && !R.surge) console.log('  10,000 armed: skipped (BENCH_SURGE=1 or BENCH_LARGE=1)');
}

// Standalone: `node tests/bench/canary.mjs`.
if (import.meta.url === `file://${process.argv[1]}`) {
  say('starting wrangler dev (fresh local D1, --test-scheduled)…');
  say(benchRuntime().describe);
  const worker = await startBenchWorker({
    extraArgs: ['--test-scheduled'],
    log: process.env.AFTERWORD_WORKER_LOG ? (l) => console.error(`[wrangler] ${l}`) : undefined,
  });
  let R;
  try {
    R = await runCanaryBench(worker);
  } finally {
    await worker.stop();
  }
  printCanaryResults(R);
}
