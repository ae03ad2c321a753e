// Data export memory (it must stay flat whatever the account's size; docs/decisions/data-export.md): the same
// Worker, two accounts — one with a 1 MB vault file, one with 200 MiB of vault files (8 × 25 MiB) — each
// exported once through GET /api/legal/export while workerd's RSS is sampled every 50 ms. Same-run
// baseline: the small account's peak. The bytes are read as they stream and counted, never kept.
import { randomBytes } from 'node:crypto';
import { workerdRss } from './canary.mjs';

const FILE = 25 * 1024 * 1024 - 4096;
const fmtMB = (kb) => `${(kb / 1024).toFixed(1)} MB`;

async function account(origin, tag) {
  const email = `export-${tag}-${Date.now()}@example.test`;
  const password = 'Correct-Horse-Battery-42';
  const reg = await fetch(`${origin}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, data_policy_region: 'INTL-General' }),
  });
  const { id } = await reg.json();
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return { id, token: (await login.json()).access_token };
}

const b64u = (n) => randomBytes(n).toString('base64url');
const envelope = (kid) =>
  JSON.stringify({
    v: 1,
    alg: 'A256GCM',
    iv: b64u(12),
    ct: b64u(64),
    recipients: [
      { kid, alg: 'ECDH-ES+HKDF-SHA256+A256GCM', epk: { kty: 'EC', crv: 'P-256', x: b64u(32), y: b64u(32) }, salt: b64u(16), iv: b64u(12), wrapped: b64u(48) },
    ],
  });

async function upload(origin, who, size) {
  const form = new FormData();
  form.append('file', new Blob([randomBytes(size)]), 'big.bin');
  form.append('iv', randomBytes(12).toString('base64'));
  form.append('envelope', envelope(who.id));
  form.append('consent', 'true');
  const res = await fetch(`${origin}/api/vault/create`, { method: 'POST', headers: { authorization: `Bearer ${who.token}` }, body: form });
  if (res.status !== 201) throw new Error(`vault create: ${res.status} ${await res.text()}`);
}

async function exportWithPeak(origin, pid, who) {
  const base = workerdRss(pid).totalKb;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, workerdRss(pid).totalKb);
  }, 50);
  const t0 = performance.now();
  const res = await fetch(`${origin}/api/legal/export`, { headers: { authorization: `Bearer ${who.token}` } });
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.byteLength;
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  return { status: res.status, bytes, seconds, baseKb: base, peakKb: peak };
}

export async function runExportBench(worker) {
  const small = await account(worker.origin, 'small');
  await upload(worker.origin, small, 1024 * 1024);
  const medium = await account(worker.origin, 'medium');
  for (let i = 0; i < 2; i++) await upload(worker.origin, medium, FILE);
  const large = await account(worker.origin, 'large');
  for (let i = 0; i < 8; i++) await upload(worker.origin, large, FILE);
  // Warm the route once so the first run does not pay for module loading.
  await exportWithPeak(worker.origin, worker.pid, small);
  return {
    small: await exportWithPeak(worker.origin, worker.pid, small),
    medium: await exportWithPeak(worker.origin, worker.pid, medium),
    large: await exportWithPeak(worker.origin, worker.pid, large),
  };
}

export function printExportResults({ small, medium, large }) {
  console.log('\n== Data export: GET /api/legal/export streamed (wrangler dev → workerd, local D1 and R2) ==');
  const row = (label, r) => ({
    account: label,
    status: r.status,
    archive: `${(r.bytes / 1024 / 1024).toFixed(1)} MiB`,
    seconds: Number(r.seconds.toFixed(1)),
    'MiB/s': Number((r.bytes / 1024 / 1024 / r.seconds).toFixed(1)),
    'workerd RSS before': fmtMB(r.baseKb),
    'peak during': fmtMB(r.peakKb),
    growth: fmtMB(r.peakKb - r.baseKb),
  });
  console.table([row('1 MB of files', small), row('50 MiB (2 × 25 MiB)', medium), row('200 MiB (8 × 25 MiB)', large)]);
  const g = (r) => r.peakKb - r.baseKb;
  console.log(
    `  peak growth: ${fmtMB(g(small))} at 1 MB, ${fmtMB(g(medium))} at 50 MiB, ${fmtMB(g(large))} at 200 MiB — 4× the archive costs ${(g(large) / Math.max(1, g(medium))).toFixed(1)}× the growth`,
  );
}
