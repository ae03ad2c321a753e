#!/usr/bin/env node
// Release-engine benchmarks. Prints figures, asserts nothing.
// Used by tests/bench/index.mjs on its Worker (BENCH_RELEASES=0 skips it); `node tests/bench/releases.mjs`
// runs it alone on a Worker of its own.
//
// Path measured: client on 127.0.0.1 → `wrangler dev` (local proxy) → workerd, with local D1 (SQLite),
// local Durable Objects (CanaryClock, ReleaseClock) and miniflare's local queues (JOBS, DELIVERIES):
// not Cloudflare's edge. Every timestamp compared comes from the same machine clock.
//  1. Release latency: N senders (default 1,000), each with one canary and one message
//     (missed_checkins 1, expire_window 0, delivery_method email, EMAIL_TRANSPORT=outbox), the canaries'
//     deadlines within the same BENCH_RELEASE_SPREAD seconds (default 60: "in the same minute"). Per message:
//     latency = created_at of its first delivery_log row with channel 'email' − its canary's deadline
//     (last_check_in + interval). Lost = no email attempt after the wait; twice = more than one
//     outbox row carrying its (unique) text, or more than one successful email log row.
//     Senders and their sessions are written straight into D1 (one scrypt per registration would
//     take minutes on this machine); everything after that goes through the HTTP API. Canaries left
//     active by earlier parts are deactivated first; this part's canaries are deleted after it.
//  2. Delivery throughput: N pre-created messages (default 300) of one sender released together by
//     POST /api/messages/deliver/{id} (BENCH_RELEASE_CONCURRENCY in flight, default 20); messages/s =
//     N ÷ (last delivery − first release). (a) to the outbox (this Worker); (b) to a real SMTP server
//     (npm smtp-server, from the worker package) on 127.0.0.1, through a second Worker started with
//     EMAIL_TRANSPORT=smtp. Owner notices (message released → the sender, by email) run as they do in
//     production and share the queues; they are counted, not measured.
// The every-minute cron is triggered throughout, and workerd restarts by wrangler dev (a watched file
// changed; queue messages in flight are dropped) are counted and printed with each part.
// Env: BENCH_RELEASE_N (1000), BENCH_RELEASE_SPREAD (60 s), BENCH_RELEASE_WAIT (180 s after the last
//      deadline at most), BENCH_THROUGHPUT_N (300), BENCH_RELEASE_CONCURRENCY (20), BENCH_SMTP=0 skips (2b),
//      BENCH_SMTP_GREET_DELAY=1 keeps smtp-server's 100 ms greeting pause (removed by default),
//      BENCH_CRON=0 (no emulated every-minute cron).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { d1, d1File } from '../support/d1.mjs';
import { workerdRss } from './canary.mjs';
import { repoRoot } from '../support/worker-server.mjs';
import { benchRuntime, startBenchWorker } from './bench-worker.mjs';

const N = Number(process.env.BENCH_RELEASE_N ?? 1000);
const SPREAD_MS = Number(process.env.BENCH_RELEASE_SPREAD ?? 60) * 1000;
const WAIT_MS = Number(process.env.BENCH_RELEASE_WAIT ?? 180) * 1000;
const TPUT_N = Number(process.env.BENCH_THROUGHPUT_N ?? 300);
const CONCURRENCY = Number(process.env.BENCH_RELEASE_CONCURRENCY ?? 20);
const SMTP = process.env.BENCH_SMTP !== '0';
const GREET_DELAY = process.env.BENCH_SMTP_GREET_DELAY === '1';
const CRON = process.env.BENCH_CRON !== '0';
const PASSWORD = 'Correct-Horse-Battery-42';
const GOAL_P99_MS = 2000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const say = (msg) => console.log(`bench[releases] ${new Date().toISOString().slice(11, 19)} (load ${loadavg()[0].toFixed(2)}) ${msg}`);
const fmtMs = (v) => (v == null || Number.isNaN(v) ? 'n/a' : `${Number(v).toFixed(0)} ms`);
const sha256hex = (s) => createHash('sha256').update(s).digest('hex');
const q = (s) => `'${String(s).replace(/'/g, "''")}'`;

function pct(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
function stats(values) {
  const s = values.filter((v) => v != null).sort((a, b) => a - b);
  return { n: s.length, p50: pct(s, 50), p99: pct(s, 99), max: s.at(-1) ?? null, min: s[0] ?? null };
}

let restarts = 0;
/**
 * POST with JSON. A 503 "worker restarted mid-request" (wrangler dev restarting workerd on a file
 * change) is retried; the request may have been applied before the restart, so `body` may be a
 * function of the retry number (a create then carries a different text) and the answer says `retried`.
 */
async function post(origin, path, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  for (let attempt = 0; ; attempt++) {
    const payload = typeof body === 'function' ? body(attempt) : body;
    const res = await fetch(`${origin}${path}`, { method: 'POST', headers, body: payload === undefined ? undefined : JSON.stringify(payload) });
    const text = await res.text();
    if (res.status === 503 && /restarted mid-request/.test(text) && attempt < 5) {
      restarts++;
      await sleep(1000);
      continue;
    }
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, retried: attempt > 0 };
  }
}

/** A message's text: unique per message and per HTTP attempt (a create retried after a restart may exist twice). */
const messageInputText = (tag, i, attempt) => `${tag}${i}${attempt ? `.retry${attempt}` : ''}`;

async function del(origin, path, token) {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${origin}${path}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    if (res.status === 503 && /restarted mid-request/.test(text) && attempt < 5) {
      restarts++;
      await sleep(1000);
      continue;
    }
    // Retried after a restart that came after the delete was applied: it is gone, as wanted.
    if (res.status === 404 && attempt > 0) return { status: 200, body: text };
    return { status: res.status, body: text };
  }
}

/** Runs `n` requests with `lanes` in flight; `send(i)` returns {status, body}; retried twice on failure. */
async function many(n, lanes, expect, send) {
  const out = new Array(n);
  let next = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: Math.min(lanes, n) }, async () => {
      for (;;) {
        const i = next++;
        if (i >= n) return;
        for (let attempt = 0; ; attempt++) {
          const res = await send(i).catch((e) => ({ status: 0, body: String(e) }));
          if (res.status === expect) {
            out[i] = res.body;
            break;
          }
          if (attempt >= 2) throw new Error(`request ${i} failed: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
          await sleep(200);
        }
      }
    }),
  );
  return { out, startedAt: t0, endedAt: Date.now(), seconds: (Date.now() - t0) / 1000 };
}

/**
 * Registers one real account through the API (the recipient) and writes `n` more accounts with the same
 * (valid) password hash and one bearer session each straight into D1. Returns their ids and tokens.
 */
async function seedUsers(worker, prefix, n) {
  const { origin, persistDir } = worker;
  const recipientEmail = `${prefix}.recipient@example.test`;
  const reg = await post(origin, '/api/auth/register', { email: recipientEmail, password: PASSWORD, data_policy_region: 'INTL-General' });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const [{ hash }] = await d1(persistDir, `SELECT password_hash AS hash FROM users WHERE id = ${q(reg.body.id)}`);
  const now = Date.now();
  const senders = Array.from({ length: n }, (_, i) => {
    const token = randomBytes(32).toString('base64url');
    return { id: randomUUID(), email: `${prefix}.sender${i}@example.test`, token, tokenHash: sha256hex(token) };
  });
  const lines = [];
  for (let i = 0; i < n; i += 100) {
    const chunk = senders.slice(i, i + 100);
    lines.push(
      `INSERT INTO users (id, email, password_hash, data_policy_region, created_at, updated_at) VALUES ${chunk.map((s) => `(${q(s.id)}, ${q(s.email)}, ${q(hash)}, 'INTL-General', ${now}, ${now})`).join(', ')};`,
    );
    lines.push(
      `INSERT INTO sessions (id, user_id, token_hash, created_at, expires_at, method) VALUES ${chunk.map((s) => `(${q(randomUUID())}, ${q(s.id)}, ${q(s.tokenHash)}, ${now}, ${now + 86_400_000}, 'password')`).join(', ')};`,
    );
  }
  await d1File(persistDir, lines.join('\n'));
  // The Worker must see them: one authenticated request per seeding is a cheap check.
  const me = await fetch(`${origin}/api/auth/me`, { headers: { authorization: `Bearer ${senders[0].token}` } });
  if (me.status !== 200) throw new Error(`seeded session not accepted by the Worker: ${me.status} ${await me.text()}`);
  return { recipient: { id: reg.body.id, email: recipientEmail }, senders };
}

const messageInput = (recipientId, content) => ({
  recipient_user_id: recipientId,
  content,
  delivery_method: 'email',
  rules: [{ trigger_type: 'missed_checkins', trigger_value: 1, expire_window: 0 }],
  consent: true,
});

/**
 * Runs beside a Worker for the whole bench: (a) emulates production's every-minute cron
 * (`/cdn-cgi/handler/scheduled`, needs --test-scheduled), whose reconciler re-sends lost jobs; (b) counts
 * workerd processes that appear in wrangler dev's process group after the start: wrangler dev restarts
 * workerd when a watched file (worker source, web/dist) changes, and a restart drops miniflare's
 * in-memory queue messages and kills handlers in flight, which only the reconciler then repairs.
 */
function watchWorker(worker) {
  let runs = 0;
  let failures = 0;
  const tick = async () => {
    try {
      const res = await fetch(`${worker.origin}/cdn-cgi/handler/scheduled`, { signal: AbortSignal.timeout(55_000) });
      await res.text();
      if (res.ok) runs++;
      else failures++;
    } catch {
      failures++;
    }
  };
  const cronTimer = CRON ? setInterval(tick, 60_000) : null;
  const seen = new Set(workerdRss(worker.pid).procs.map((p) => p.pid));
  let respawns = 0;
  const procTimer = setInterval(() => {
    for (const p of workerdRss(worker.pid).procs) {
      if (!seen.has(p.pid)) {
        seen.add(p.pid);
        respawns++;
      }
    }
  }, 500);
  const snapshot = () => ({ cronRuns: runs, cronFailures: failures, respawns });
  return {
    snapshot,
    since: (before) => {
      const now = snapshot();
      return { cronRuns: now.cronRuns - before.cronRuns, cronFailures: now.cronFailures - before.cronFailures, respawns: now.respawns - before.respawns };
    },
    stop: () => {
      if (cronTimer) clearInterval(cronTimer);
      clearInterval(procTimer);
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// 1. Release latency: canary deadline → first email delivery attempt.

/** Per-message timeline of the run's messages (content LIKE tag%). */
function latencyRows(persistDir, tag) {
  return d1(
    persistDir,
    `SELECT m.id AS id, m.status AS status,
       c.last_check_in + c.interval_seconds * 1000 AS deadline,
       (SELECT min(t.fired_at) FROM canary_transitions t WHERE t.canary_id = c.id AND t.kind = 'missed' AND t.misses = 1) AS missed_at,
       (SELECT min(t.counts_from) FROM canary_transitions t WHERE t.canary_id = c.id AND t.kind = 'missed' AND t.misses = 1) AS counts_from,
       (SELECT min(t.emitted_at) FROM canary_transitions t WHERE t.canary_id = c.id AND t.kind = 'missed' AND t.misses = 1) AS emitted_at,
       (SELECT t.recorded_by FROM canary_transitions t WHERE t.canary_id = c.id AND t.kind = 'missed' AND t.misses = 1 LIMIT 1) AS missed_by,
       (SELECT count(*) FROM canary_transitions t WHERE t.canary_id = c.id AND t.kind = 'late_rewarn') AS rewarned,
       (SELECT min(mt.created_at) FROM message_transitions mt WHERE mt.message_id = m.id AND mt.to_status = 'armed') AS armed_at,
       (SELECT mt.cause FROM message_transitions mt WHERE mt.message_id = m.id AND mt.to_status = 'releasing' LIMIT 1) AS release_cause,
       m.released_at AS released_at,
       (SELECT min(l.created_at) FROM delivery_log l WHERE l.message_id = m.id AND l.channel = 'email') AS first_attempt,
       (SELECT count(*) FROM delivery_log l WHERE l.message_id = m.id AND l.channel = 'email') AS attempts,
       (SELECT count(*) FROM delivery_log l WHERE l.message_id = m.id AND l.channel = 'email' AND l.success = 1) AS ok_logs,
       (SELECT count(*) FROM delivery_log l WHERE l.message_id = m.id AND l.channel = 'inbox') AS inbox_logs,
       (SELECT count(*) FROM deliveries d WHERE d.message_id = m.id) AS deliveries,
       (SELECT count(*) FROM outbox_messages o WHERE o.channel = 'email' AND o.idempotency_key IN (SELECT 'delivery:' || d.id FROM deliveries d WHERE d.message_id = m.id)) AS outbox_rows
     FROM messages m JOIN canaries c ON c.user_id = m.sender_id
     WHERE m.content LIKE ${q(`${tag}%`)}`,
  );
}

async function countAttempted(persistDir, tag, ids) {
  const rows = await d1(
    persistDir,
    `SELECT DISTINCT l.message_id AS id FROM delivery_log l JOIN messages m ON m.id = l.message_id WHERE l.channel = 'email' AND m.content LIKE ${q(`${tag}%`)}`,
  );
  return rows.filter((r) => ids.has(r.id)).length;
}

async function runLatency(worker, runId, watch) {
  const { origin, persistDir } = worker;
  const R = { n: N, spreadMs: SPREAD_MS };
  // Canaries left by earlier parts of `npm run bench` (the canary bench's burst keeps missing every
  // 60–91 s) would share the alarms and the JOBS queue with this run: deactivate them (their next
  // alarm then finds them inactive and stops). The Worker and its D1 are the bench's own.
  const [left] = await d1(persistDir, `SELECT count(*) AS n FROM canaries WHERE active = 1`);
  if (left.n) await d1(persistDir, `UPDATE canaries SET active = 0 WHERE active = 1`);
  R.deactivated = left.n;
  const w0 = watch.snapshot();
  say(`latency: seeding ${N} senders (+ sessions) in D1 and one recipient through the API…`);
  const t0 = Date.now();
  const { recipient, senders } = await seedUsers(worker, `bench.rel.${runId}`, N);
  R.seedSeconds = (Date.now() - t0) / 1000;

  const tag = `bench-release ${runId} #`;
  say(`latency: creating ${N} messages (one per sender; missed_checkins 1, expire_window 0, email), ${CONCURRENCY} in flight…`);
  const msgs = await many(N, CONCURRENCY, 201, (i) =>
    post(origin, '/api/message/create', (a) => messageInput(recipient.id, messageInputText(tag, i, a)), senders[i].token),
  );
  const ids = new Set(msgs.out.map((m) => m.id));
  R.createMessages = { seconds: msgs.seconds, perSecond: N / msgs.seconds };
  say(`latency: messages created in ${msgs.seconds.toFixed(1)} s (${R.createMessages.perSecond.toFixed(0)}/s)`);

  // The grace reminders go to each owner's channels (the outbox here) and a miss counts only a grace period
  // after one reached them: no quiet hours, so a run at night measures the same path as one by day.
  await many(N, CONCURRENCY, 200, (i) =>
    post(
      origin,
      '/api/notify/preferences',
      () => ({ methods: ['email'], quiet_hours: { start: '00:00', end: '00:00' }, alerts: { vaults: true, messages: true, canary_events: true } }),
      senders[i].token,
    ),
  );

  // Canaries: deadlines spread over [W, W + spread]. Creation must end well before the first grace
  // reminder (20 % of a ≥ 60 s interval before W), so the reminders are on time and the misses count
  // at the deadline (a late reminder would add a fresh grace period, by design).
  const rate = R.createMessages.perSecond;
  const start = Date.now();
  // Canaries are created at about half the rate of messages (each arms its Durable Object).
  const windowStart = start + Math.max(90_000, (N / (rate / 2)) * 1000 * 1.3 + 65_000);
  const inner = Math.max(0, SPREAD_MS - 1000);
  say(`latency: creating ${N} canaries (one per sender) due within ${SPREAD_MS / 1000} s from ${new Date(windowStart).toISOString().slice(11, 19)}…`);
  const can = await many(N, CONCURRENCY, 201, async (i) => {
    const target = windowStart + Math.min(500, SPREAD_MS / 2) + (inner * (i + 0.5)) / N;
    const res = await post(
      origin,
      '/api/canary/create',
      () => ({ name: `rel-${i}`, interval_seconds: Math.max(60, Math.round((target - Date.now()) / 1000)) }),
      senders[i].token,
    );
    if (res.status === 403 && res.retried) {
      // The first attempt created it before the restart (a free account has one canary): use that one.
      const list = await fetch(`${origin}/api/canary/list`, { headers: { authorization: `Bearer ${senders[i].token}` } });
      const [existing] = await list.json();
      if (existing) return { status: 201, body: existing };
    }
    return res;
  });
  const deadlines = can.out.map((c) => Date.parse(c.deadline)).sort((a, b) => a - b);
  const intervals = can.out.map((c) => c.interval_seconds).sort((a, b) => a - b);
  R.createCanaries = {
    seconds: can.seconds,
    perSecond: N / can.seconds,
    first: deadlines[0],
    last: deadlines.at(-1),
    minInterval: intervals[0],
    maxInterval: intervals.at(-1),
  };
  say(
    `latency: canaries created in ${can.seconds.toFixed(1)} s; deadlines ${new Date(deadlines[0]).toISOString()} … +${((deadlines.at(-1) - deadlines[0]) / 1000).toFixed(2)} s`,
  );

  const until = deadlines.at(-1) + WAIT_MS;
  say(
    `latency: waiting for the deadlines (${((deadlines.at(-1) - Date.now()) / 1000).toFixed(0)} s), then until every message has an email attempt (at most ${WAIT_MS / 1000} s more)…`,
  );
  await sleep(Math.max(0, deadlines.at(-1) - Date.now() + 10_000));
  for (;;) {
    const attempted = await countAttempted(persistDir, tag, ids);
    if (attempted >= N || Date.now() >= until) break;
    say(`latency: ${attempted}/${N} messages have an email attempt…`);
    await sleep(5000);
  }
  R.checkedAfterMs = Date.now() - deadlines.at(-1);
  R.load1m = loadavg()[0];
  R.watch = watch.since(w0);

  const all = await latencyRows(persistDir, tag);
  // Only the messages whose creation answered (a create retried after a workerd restart may have left an extra one).
  const rows = all.filter((r) => ids.has(r.id));
  R.extraMessages = all.length - rows.length;
  const lat = (from, to) => rows.map((r) => (r[to] != null && r[from] != null ? r[to] - r[from] : null));
  R.rows = rows.length;
  R.total = stats(lat('deadline', 'first_attempt'));
  const onTime = rows.filter((r) => r.rewarned === 0);
  R.onTime = { n: onTime.length, ...stats(onTime.map((r) => (r.first_attempt != null ? r.first_attempt - r.deadline : null))) };
  R.fromCounts = stats(lat('counts_from', 'first_attempt'));
  R.stages = [
    ['deadline → canary miss recorded (CanaryClock alarm)', stats(lat('deadline', 'missed_at'))],
    ['miss recorded → miss counts (0 unless re-warned)', stats(lat('missed_at', 'counts_from'))],
    ['miss counts → event sent to JOBS', stats(lat('counts_from', 'emitted_at'))],
    ['event sent → message armed (JOBS consumer)', stats(lat('emitted_at', 'armed_at'))],
    ['armed → released (ReleaseClock, inbox row)', stats(lat('armed_at', 'released_at'))],
    ['released → first email attempt (DELIVERIES consumer)', stats(lat('released_at', 'first_attempt'))],
    ['miss counts → first email attempt', R.fromCounts],
    [`deadline → first email attempt, canaries warned on time (${onTime.length})`, R.onTime],
    ['deadline → first email attempt (end to end, all)', R.total],
  ];
  R.lost = rows.filter((r) => r.first_attempt == null).length + (N - rows.length);
  R.twice = rows.filter((r) => r.outbox_rows > 1 || r.ok_logs > 1).length;
  R.failedAttempts = rows.reduce((a, r) => a + (r.attempts - r.ok_logs), 0);
  R.outboxRows = rows.reduce((a, r) => a + r.outbox_rows, 0);
  R.inboxLogs = rows.reduce((a, r) => a + r.inbox_logs, 0);
  R.deliveries = rows.reduce((a, r) => a + r.deliveries, 0);
  R.delivered = rows.filter((r) => r.status === 'delivered').length;
  R.rewarned = rows.filter((r) => r.rewarned > 0).length;
  R.missByAlarm = rows.filter((r) => r.missed_by === 'alarm').length;
  const causes = {};
  for (const r of rows) {
    const cause = r.release_cause ?? 'none';
    causes[cause] = (causes[cause] ?? 0) + 1;
  }
  R.releaseCauses = Object.entries(causes)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  R.over2s = rows.filter((r) => r.first_attempt != null && r.first_attempt - r.deadline > GOAL_P99_MS).length;
  const [notices] = await d1(
    persistDir,
    `SELECT count(*) AS n, sum(status = 'sent') AS sent FROM owner_notices WHERE user_id IN (SELECT sender_id FROM messages WHERE content LIKE ${q(`${tag}%`)})`,
  );
  R.notices = notices;
  say(`latency: p50 ${fmtMs(R.total.p50)}, p99 ${fmtMs(R.total.p99)}, max ${fmtMs(R.total.max)}, lost ${R.lost}, twice ${R.twice}`);
  // Unwatched, the canaries keep missing (misses 2, 3, … every interval) and load the parts that follow.
  say(`latency: deleting the ${N} canaries so their later misses do not load the next parts…`);
  try {
    const gone = await many(N, CONCURRENCY, 200, (i) => del(origin, `/api/canary/${can.out[i].id}`, senders[i].token));
    say(`latency: deleted in ${gone.seconds.toFixed(1)} s`);
  } catch (e) {
    say(`latency: could not delete every canary (${e.message}); going on`);
  }
  return R;
}

// ---------------------------------------------------------------------------------------------------
// 2. Throughput: N messages released at once → outbox | SMTP sink.

/** Creates TPUT_N messages of one seeded sender and releases them all with POST /api/messages/deliver/{id}. */
async function releaseMany(worker, runId, label) {
  const { origin } = worker;
  const { recipient, senders } = await seedUsers(worker, `bench.${label}.${runId}`, 1);
  const token = senders[0].token;
  const tag = `bench-${label} ${runId} #`;
  say(`${label}: creating ${TPUT_N} messages of one sender…`);
  const created = await many(TPUT_N, CONCURRENCY, 201, (i) =>
    post(origin, '/api/message/create', (a) => messageInput(recipient.id, messageInputText(tag, i, a)), token),
  );
  await sleep(2000); // let the creation settle
  say(`${label}: releasing all ${TPUT_N} with POST /api/messages/deliver/{id}, ${CONCURRENCY} in flight…`);
  const released = await many(TPUT_N, CONCURRENCY, 200, (i) => post(origin, `/api/messages/deliver/${created.out[i].id}`, undefined, token));
  return {
    recipient,
    tag,
    ids: created.out.map((m) => m.id),
    releaseSeconds: released.seconds,
    releaseStartedAt: released.startedAt,
    releaseEndedAt: released.endedAt,
  };
}

async function throughputFigures(persistDir, tag) {
  const [r] = await d1(
    persistDir,
    `SELECT count(*) AS messages, min(m.released_at) AS first_release, max(m.released_at) AS last_release,
       sum(m.status = 'delivered') AS delivered,
       (SELECT count(*) FROM delivery_log l JOIN messages m2 ON m2.id = l.message_id WHERE l.channel = 'email' AND l.success = 1 AND m2.content LIKE ${q(`${tag}%`)}) AS ok_logs,
       (SELECT count(*) FROM delivery_log l JOIN messages m2 ON m2.id = l.message_id WHERE l.channel = 'email' AND l.success = 0 AND m2.content LIKE ${q(`${tag}%`)}) AS failed_logs,
       (SELECT count(DISTINCT l.message_id) FROM delivery_log l JOIN messages m2 ON m2.id = l.message_id WHERE l.channel = 'email' AND l.success = 1 AND m2.content LIKE ${q(`${tag}%`)}) AS ok_messages,
       (SELECT min(l.created_at) FROM delivery_log l JOIN messages m2 ON m2.id = l.message_id WHERE l.channel = 'email' AND m2.content LIKE ${q(`${tag}%`)}) AS first_attempt,
       (SELECT max(l.created_at) FROM delivery_log l JOIN messages m2 ON m2.id = l.message_id WHERE l.channel = 'email' AND l.success = 1 AND m2.content LIKE ${q(`${tag}%`)}) AS last_ok,
       -- A channel carries a notice, not the message's words: the outbox rows are found by their deliveries' keys.
       (SELECT count(*) FROM outbox_messages o WHERE o.channel = 'email' AND o.idempotency_key IN (SELECT 'delivery:' || d.id FROM deliveries d JOIN messages m3 ON m3.id = d.message_id WHERE m3.content LIKE ${q(`${tag}%`)})) AS outbox_rows,
       (SELECT count(DISTINCT o.idempotency_key) FROM outbox_messages o WHERE o.channel = 'email' AND o.idempotency_key IN (SELECT 'delivery:' || d.id FROM deliveries d JOIN messages m3 ON m3.id = d.message_id WHERE m3.content LIKE ${q(`${tag}%`)})) AS outbox_distinct,
       (SELECT max(o.created_at) FROM outbox_messages o WHERE o.channel = 'email' AND o.idempotency_key IN (SELECT 'delivery:' || d.id FROM deliveries d JOIN messages m3 ON m3.id = d.message_id WHERE m3.content LIKE ${q(`${tag}%`)})) AS last_outbox
     FROM messages m WHERE m.content LIKE ${q(`${tag}%`)} AND m.released_at IS NOT NULL`,
  );
  const byStatus = await d1(
    persistDir,
    `SELECT d.status AS status, count(*) AS n FROM deliveries d JOIN messages m ON m.id = d.message_id WHERE m.content LIKE ${q(`${tag}%`)} GROUP BY 1 ORDER BY 1`,
  );
  r.deliveriesByStatus = byStatus.map((x) => `${x.status} ${x.n}`).join(', ');
  return r;
}

async function waitDelivered(persistDir, tag, count, untilMs) {
  for (;;) {
    const [r] = await d1(
      persistDir,
      `SELECT count(DISTINCT l.message_id) AS n FROM delivery_log l JOIN messages m ON m.id = l.message_id WHERE l.channel = 'email' AND l.success = 1 AND m.content LIKE ${q(`${tag}%`)}`,
    );
    if (r.n >= count || Date.now() >= untilMs) return r.n;
    await sleep(3000);
  }
}

async function runOutboxThroughput(worker, runId, watch) {
  const w0 = watch.snapshot();
  const rel = await releaseMany(worker, runId, 'outbox');
  await waitDelivered(worker.persistDir, rel.tag, TPUT_N, Date.now() + WAIT_MS);
  const f = await throughputFigures(worker.persistDir, rel.tag);
  const end = f.last_outbox;
  const R = {
    n: TPUT_N,
    releaseSeconds: rel.releaseSeconds,
    figures: f,
    seconds: (end - f.first_release) / 1000,
    drainAfterLastReleaseMs: end - f.last_release,
    load1m: loadavg()[0],
    watch: watch.since(w0),
  };
  R.perSecond = f.outbox_distinct / R.seconds;
  R.twice = f.outbox_rows - f.outbox_distinct + Math.max(0, f.ok_logs - f.ok_messages);
  say(`outbox: ${f.outbox_distinct}/${TPUT_N} in the outbox ${R.seconds.toFixed(2)} s after the first release: ${R.perSecond.toFixed(1)} messages/s`);
  return R;
}

/** A real SMTP server on 127.0.0.1 (npm smtp-server from the worker package), recording what arrives. */
async function startSmtpSink() {
  const require = createRequire(join(repoRoot, 'worker', 'package.json'));
  const { SMTPServer } = require('smtp-server');
  if (!GREET_DELAY) {
    // smtp-server holds every greeting 100 ms to catch early talkers; the adapter opens one connection
    // per email, so that pause alone would cap the run at ~10/s. Greet at once (BENCH_SMTP_GREET_DELAY=1 keeps it).
    const { SMTPConnection } = require('smtp-server/lib/smtp-connection.js');
    SMTPConnection.prototype.init = function init() {
      this._setListeners(() => this.connectionReady());
    };
  }
  const received = [];
  const server = new SMTPServer({
    name: 'bench.smtp.test',
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // No reverse DNS of the client per connection: the sink must not be what is measured.
    disableReverseLookup: true,
    socketTimeout: 30_000,
    maxClients: 1000,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('latin1');
        const head = raw.split('\r\n\r\n')[0] ?? '';
        received.push({
          at: Date.now(),
          rcpt: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          messageId: /^Message-ID:\s*(.+)$/im.exec(head)?.[1]?.trim() ?? null,
          raw,
        });
        callback(null, 'OK: queued');
      });
    },
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return { port: server.server.address().port, received, close: () => new Promise((r) => server.close(() => r())) };
}

async function runSmtpThroughput(runId) {
  const sink = await startSmtpSink();
  const batches = [];
  say(`smtp: SMTP sink on 127.0.0.1:${sink.port}; starting a second wrangler dev with EMAIL_TRANSPORT=smtp…`);
  const worker = await startBenchWorker({
    vars: {
      EMAIL_TRANSPORT: 'smtp',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(sink.port),
      SMTP_SECURE: 'none',
      EMAIL_FROM: 'Afterword Bench <bench@afterword.test>',
    },
    extraArgs: ['--test-scheduled'],
    log: (l) => {
      // miniflare logs each consumer batch: "QUEUE afterword-deliveries 100/100 (1346ms)".
      const b = /QUEUE afterword-deliveries (\d+)\/(\d+) \((\d+)ms\)/.exec(l);
      if (b) batches.push({ acked: Number(b[1]), size: Number(b[2]), ms: Number(b[3]) });
      if (process.env.AFTERWORD_WORKER_LOG) console.error(`[wrangler smtp] ${l}`);
    },
  });
  const watch = watchWorker(worker);
  try {
    const rel = await releaseMany(worker, runId, 'smtp');
    const rcpt = rel.recipient.email.toLowerCase();
    const toRecipient = () => sink.received.filter((m) => m.rcpt.includes(rcpt));
    const until = Date.now() + WAIT_MS;
    while (new Set(toRecipient().map((m) => m.messageId)).size < TPUT_N && Date.now() < until) await sleep(1000);
    await sleep(3000); // anything late or duplicated still arrives, and the log rows are written
    const f = await throughputFigures(worker.persistDir, rel.tag);
    const got = toRecipient();
    const ids = new Set(got.map((m) => m.messageId));
    const texts = new Set();
    for (const m of got) {
      const hit = /bench-smtp \S+ #(\d+(?:\.retry\d)?)/.exec(m.raw);
      if (hit) texts.add(hit[1]);
    }
    const lastAt = Math.max(...got.map((m) => m.at));
    const R = {
      n: TPUT_N,
      releaseSeconds: rel.releaseSeconds,
      figures: f,
      received: got.length,
      distinctMessageIds: ids.size,
      distinctTexts: texts.size,
      toOthers: sink.received.length - got.length,
      seconds: (lastAt - f.first_release) / 1000,
      drainAfterLastReleaseMs: lastAt - f.last_release,
      load1m: loadavg()[0],
      watch: watch.snapshot(),
      // Consumer batches that carried this run's deliveries (the release requests start after set-up).
      batches: batches.filter((b) => b.size > 0),
    };
    R.perSecond = ids.size / R.seconds;
    R.twice = got.length - ids.size;
    say(`smtp: ${ids.size}/${TPUT_N} at the SMTP sink ${R.seconds.toFixed(2)} s after the first release: ${R.perSecond.toFixed(1)} messages/s`);
    return R;
  } finally {
    watch.stop();
    await worker.stop();
    await sink.close();
  }
}

/** Runs all release-engine benchmarks on a running Worker (started with --test-scheduled for the cron). */
export async function runReleaseBench(worker) {
  const runId = Date.now().toString(36);
  const R = { cronEmulated: CRON };
  const watch = watchWorker(worker);
  try {
    if (N > 0) R.latency = await runLatency(worker, runId, watch);
    R.outbox = await runOutboxThroughput(worker, runId, watch);
  } finally {
    watch.stop();
  }
  if (SMTP) R.smtp = await runSmtpThroughput(runId).catch((e) => ({ error: e.message }));
  R.restarts = restarts;
  return R;
}

function tputRow(name, T) {
  const f = T.figures;
  return {
    sink: name,
    messages: T.n,
    'release requests took': `${T.releaseSeconds.toFixed(1)} s`,
    'first release → last delivered': `${T.seconds.toFixed(2)} s`,
    'messages/s': Number(T.perSecond.toFixed(1)),
    'drained after last release': fmtMs(T.drainAfterLastReleaseMs),
    'delivered (D1 log ok)': `${f.ok_messages}/${T.n}`,
    'failed attempts': f.failed_logs,
    twice: T.twice,
    'load (1 min)': T.load1m.toFixed(2),
  };
}

export function printReleaseResults(R) {
  const L = R.latency;
  if (!L) console.log('\n== Release latency: skipped (BENCH_RELEASE_N=0) ==');
  else printLatency(R, L);
  printThroughput(R);
}

function printLatency(R, L) {
  console.log(
    `\n== Release latency: ${L.n} canaries of ${L.n} senders missing within ${(L.spreadMs / 1000).toFixed(0)} s → their messages (missed_checkins 1, expire_window 0) → email (outbox) ==`,
  );
  console.log(
    "   path: wrangler dev's local workerd, local D1 (SQLite), local Durable Objects (CanaryClock alarm → JOBS → ReleaseClock), miniflare's local queues (JOBS, DELIVERIES); timestamps from D1 rows",
  );
  console.log(`   latency per message = created_at of its first delivery_log row with channel 'email' − its canary's deadline (last_check_in + interval)`);
  const c = L.createCanaries;
  console.log(
    `   set-up: ${L.n} senders + sessions seeded in D1 in ${L.seedSeconds.toFixed(1)} s; messages created at ${L.createMessages.perSecond.toFixed(0)}/s; canaries at ${c.perSecond.toFixed(0)}/s (intervals ${c.minInterval}–${c.maxInterval} s), deadlines within ${((c.last - c.first) / 1000).toFixed(2)} s`,
  );
  if (L.deactivated)
    console.log(`   ${L.deactivated} canaries left active by earlier parts were deactivated first (in D1) so their misses would not share the run`);
  console.log(
    `   cron reconciler: ${R.cronEmulated ? `triggered every 60 s (${L.watch.cronRuns} runs in this part, ${L.watch.cronFailures} failed)` : 'not triggered (BENCH_CRON=0)'}; counted ${(L.checkedAfterMs / 1000).toFixed(0)} s after the last deadline; load (1 min) ${L.load1m.toFixed(2)}`,
  );
  console.log(
    `   workerd restarted by wrangler dev during this part (a watched file changed): ${L.watch.respawns} new workerd process(es)${L.watch.respawns ? ' — queue messages in flight were dropped; only the reconciler brings those back' : ''}`,
  );
  console.table(L.stages.map(([stage, s]) => ({ stage, n: s.n, p50: fmtMs(s.p50), p99: fmtMs(s.p99), max: fmtMs(s.max), min: fmtMs(s.min) })));
  if (L.extraMessages) console.log(`  (${L.extraMessages} extra message(s) left by create requests retried after a workerd restart are not counted)`);
  console.log(
    `  messages: ${L.rows}/${L.n} found; delivered ${L.delivered}; lost (no email attempt) ${L.lost}; twice ${L.twice}; failed attempts ${L.failedAttempts}; > 2 s late ${L.over2s}`,
  );
  console.log(
    `  cross-check: ${L.deliveries} deliveries rows, ${L.inboxLogs} inbox log rows, ${L.outboxRows} outbox rows of the messages' deliveries; misses recorded by alarm ${L.missByAlarm}/${L.rows}; canaries re-warned (late reminder) ${L.rewarned}; release causes: ${L.releaseCauses}; owner notices ${L.notices.n} (${L.notices.sent ?? 0} sent)`,
  );
  if (L.rewarned) {
    const tol = (i) => ((i * 1000 * 0.2 * 0.05) / 1000).toFixed(1);
    console.log(
      `  ${L.rewarned} canaries were re-warned (late_rewarn): the grace reminder was not delivered a full grace period (less 5 %: ${tol(c.minInterval)}–${tol(c.maxInterval)} s with these ${c.minInterval}–${c.maxInterval} s intervals) before the miss was recorded; by design their misses count only after a fresh grace period, which is inside their end-to-end latency`,
    );
  }
  const met = L.total.p99 != null && L.total.p99 <= GOAL_P99_MS && L.lost === 0 && L.twice === 0;
  console.log(`  goal: p99 ≤ 2 s, none lost, none twice — ${met ? 'met' : 'NOT met'} (p99 ${fmtMs(L.total.p99)}, lost ${L.lost}, twice ${L.twice})`);
}

function printThroughput(R) {
  console.log(
    `\n== Delivery throughput: N messages released at once (POST /api/messages/deliver/{id}, ${CONCURRENCY} in flight) → DELIVERIES queue → email ==`,
  );
  console.log(
    '   messages/s = distinct messages delivered ÷ (last delivery − first release); outbox: last outbox row created_at; SMTP: when the sink on 127.0.0.1 received the last one',
  );
  const rows = [tputRow('outbox (EMAIL_TRANSPORT=outbox)', R.outbox)];
  if (R.smtp && !R.smtp.error) rows.push(tputRow('SMTP server on 127.0.0.1 (EMAIL_TRANSPORT=smtp, second Worker)', R.smtp));
  console.table(rows);
  const o = R.outbox.figures;
  console.log(
    `  outbox cross-check: ${o.outbox_rows} outbox rows (${o.outbox_distinct} distinct texts) for ${o.messages} messages; ${o.delivered} messages settled 'delivered'; deliveries rows: ${o.deliveriesByStatus}`,
  );
  if (R.smtp?.error) console.log(`  SMTP run failed: ${R.smtp.error}`);
  else if (R.smtp) {
    const s = R.smtp;
    console.log(`  SMTP sink: smtp-server ${GREET_DELAY ? 'with' : 'without'} its 100 ms greeting pause, no TLS, no AUTH`);
    if (s.batches?.length)
      console.log(
        `  DELIVERIES consumer batches (miniflare runs one at a time; each email is one SMTP connection, sent in turn): ${s.batches.map((b) => `${b.size} in ${b.ms} ms`).join(', ')} → ${((s.batches.reduce((a, b) => a + b.size, 0) * 1000) / s.batches.reduce((a, b) => a + b.ms, 0)).toFixed(0)} emails/s while busy`,
      );
    console.log(
      `  SMTP cross-check: the sink received ${s.received} mails for the recipient (${s.distinctMessageIds} distinct Message-IDs, ${s.distinctTexts} distinct message texts) and ${s.toOthers} others (owner notices to the sender); D1 shows ${s.figures.ok_messages} delivered, ${s.figures.failed_logs} failed attempts; deliveries rows: ${s.figures.deliveriesByStatus}`,
    );
  } else console.log('  SMTP: skipped (BENCH_SMTP=0)');
  const respawns = [R.outbox, R.smtp].filter((t) => t && !t.error).map((t) => t.watch.respawns);
  console.log(
    `  workerd restarted by wrangler dev during these runs: ${respawns.join(' / ')} new process(es) (outbox / SMTP)${respawns.some(Boolean) ? " — queue messages in flight were dropped; the figures of that run include the reconciler's repair" : ''}`,
  );
  if (R.restarts) console.log(`  ${R.restarts} request(s) hit a wrangler dev reload (503) and were retried`);
}

// Standalone: `node tests/bench/releases.mjs`.
if (import.meta.url === `file://${process.argv[1]}`) {
  say('starting wrangler dev (fresh local D1, --test-scheduled)…');
  say(benchRuntime().describe);
  const worker = await startBenchWorker({
    extraArgs: ['--test-scheduled'],
    log: process.env.AFTERWORD_WORKER_LOG ? (l) => console.error(`[wrangler] ${l}`) : undefined,
  });
  let R;
  try {
    R = await runReleaseBench(worker);
  } finally {
    await worker.stop();
  }
  printReleaseResults(R);
}
