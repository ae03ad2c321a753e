#!/usr/bin/env node
// What the local runtime itself does with a burst of Durable Object alarms, with nothing of ours in it:
// a throwaway Worker whose object stores its due time, arms its alarm and, in the handler, records how
// late it ran (Date.now() − due). 1,000 objects due within 5 s, armed (a) by a request, (b) from an
// earlier alarm of the same object 17 s before — as a canary's miss is armed by its grace reminder —
// so each object is evicted and built again between the two, like ours. Prints, asserts nothing.
// Compare with the canary bench's burst (tests/bench/canary.mjs): same runtime settings
// (tests/bench/bench-worker.mjs). `node tests/bench/bare-object.mjs`; BARE_N, BARE_SPREAD_MS.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../support/free-port.mjs';
import { groupAlive, repoRoot } from '../support/worker-server.mjs';
import { benchRuntime } from './bench-worker.mjs';

const N = Number(process.env.BARE_N ?? 1000);
const SPREAD_MS = Number(process.env.BARE_SPREAD_MS ?? 5000);
const EARLIER_MS = 17_000;
const LEAD_MS = 40_000;

const WORKER = `
import { DurableObject } from 'cloudflare:workers';
export class Bare extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS s (k TEXT PRIMARY KEY, v)');
  }
  get(k) { return this.ctx.storage.sql.exec('SELECT v FROM s WHERE k = ?', k).toArray()[0]?.v ?? null; }
  put(k, v) { this.ctx.storage.sql.exec('INSERT OR REPLACE INTO s VALUES (?, ?)', k, v); }
  async arm(at, first) {
    this.put('at', at); this.put('first', first || null); this.put('late_first', null); this.put('late', null);
    await this.ctx.storage.setAlarm(first || at);
  }
  async alarm() {
    const now = Date.now();
    const first = this.get('first');
    if (first) {
      this.put('late_first', now - first); this.put('first', null);
      await this.ctx.storage.setAlarm(this.get('at'));
      return;
    }
    this.put('late', now - this.get('at'));
  }
  results() { return { late: this.get('late'), late_first: this.get('late_first') }; }
}
const stub = (env, i) => env.BARE.get(env.BARE.idFromName(\`\${i}\`));
const each = async (n, off, f) => { const out = []; for (let b = 0; b < n; b += 50) out.push(...(await Promise.all(Array.from({ length: Math.min(50, n - b) }, (_, j) => f(off + b + j, b + j))))); return out; };
export default {
  async fetch(req, env) {
    const u = new URL(req.url);
    const q = (k) => Number(u.searchParams.get(k) ?? 0);
    if (u.pathname === '/health') return new Response('ok');
    if (u.pathname === '/arm') {
      await each(q('n'), q('off'), (id, i) => { const at = Math.round(q('start') + (q('spread') * (i + 0.5)) / q('n')); return stub(env, id).arm(at, q('earlier') ? at - q('earlier') : 0); });
      return new Response('armed');
    }
    if (u.pathname === '/results') return Response.json(await each(q('n'), q('off'), (id) => stub(env, id).results()));
    return new Response('not found', { status: 404 });
  },
};
`;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (a, p) => a[Math.min(a.length - 1, Math.max(0, Math.ceil((p / 100) * a.length) - 1))];

const dir = mkdtempSync(join(benchRuntime().persistRoot, 'afterword-bare-'));
writeFileSync(join(dir, 'worker.js'), WORKER);
writeFileSync(
  join(dir, 'wrangler.toml'),
  `name = "bare"\nmain = "worker.js"\ncompatibility_date = "2026-11-01"\nsend_metrics = false\n[[durable_objects.bindings]]\nname = "BARE"\nclass_name = "Bare"\n[[migrations]]\ntag = "v1"\nnew_sqlite_classes = ["Bare"]\n`,
);
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const child = spawn(
  join(repoRoot, 'node_modules', '.bin', 'wrangler'),
  ['dev', '--ip', '127.0.0.1', '--port', String(port), '--persist-to', join(dir, 'state'), '--show-interactive-dev-session=false'],
  { cwd: dir, env: { ...process.env, ...benchRuntime().env, CI: '1', WRANGLER_SEND_METRICS: 'false' }, detached: true, stdio: 'ignore' },
);
try {
  console.log(`bench[bare-object] ${benchRuntime().describe}`);
  for (let i = 0; ; i++) {
    if (i > 240) throw new Error('wrangler dev did not answer');
    if (
      await fetch(`${origin}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await sleep(250);
  }
  const rows = [];
  for (const [label, earlier, off] of [
    ['armed by a request', 0, 0],
    [`armed by an alarm ${EARLIER_MS / 1000} s earlier`, EARLIER_MS, N],
  ]) {
    const start = Date.now() + LEAD_MS;
    await (await fetch(`${origin}/arm?n=${N}&off=${off}&start=${start}&spread=${SPREAD_MS}&earlier=${earlier}`)).text();
    await sleep(start + SPREAD_MS - Date.now() + 15_000);
    const out = await (await fetch(`${origin}/results?n=${N}&off=${off}`)).json();
    const late = out
      .map((o) => o.late)
      .filter((v) => v !== null)
      .sort((a, b) => a - b);
    rows.push({ alarms: `${N} due within ${SPREAD_MS / 1000} s, ${label}`, ran: late.length, p50: pct(late, 50), p99: pct(late, 99), max: late.at(-1) });
  }
  console.log('\n== Bare Durable Object alarms: Date.now() − due in the handler, ms ==');
  console.table(rows);
} finally {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {}
  for (let i = 0; i < 50 && groupAlive(child.pid); i++) await sleep(100);
  rmSync(dir, { recursive: true, force: true });
}
