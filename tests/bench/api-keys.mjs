// Key-authenticated vs session-authenticated GET /api/canary/status, same Worker, same run, same
// user (issue 6: the key path must cost no more than 1.2× the session path). The user is moved to the
// Immortality plan in D1 so the monthly quota (100,000) is not what is measured.
import autocannon from 'autocannon';
import { d1 } from '../support/d1.mjs';

const cannon = (opts) => new Promise((resolve, reject) => autocannon({ timeout: 30, ...opts }, (err, res) => (err ? reject(err) : resolve(res))));

export async function runApiKeyBench(worker, { accessToken, userId, connections = 10, duration = 8 }) {
  await d1(worker.persistDir, `UPDATE users SET plan = 'immortality' WHERE id = '${userId}'`);
  const res = await fetch(`${worker.origin}/api/developer/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ name: 'bench', scopes: ['read:canary'], sandbox: true }),
  });
  if (res.status !== 201) throw new Error(`key create failed: ${res.status} ${await res.text()}`);
  const { key } = await res.json();
  const url = `${worker.origin}/api/canary/status`;
  const session = { url, headers: { authorization: `Bearer ${accessToken}` } };
  const keyed = { url, headers: { authorization: `Bearer ${key}` } };
  await cannon({ ...session, connections: 2, duration: 2 });
  await cannon({ ...keyed, connections: 2, duration: 2 });
  const rows = [];
  // Interleaved twice, so drift over the run (thermal, other load) hits both paths alike.
  for (let round = 0; round < 2; round++) {
    rows.push({ path: 'session', ...(await cannon({ ...session, connections, duration })) });
    rows.push({ path: 'API key', ...(await cannon({ ...keyed, connections, duration })) });
  }
  return rows.map((r) => ({ path: r.path, connections, 'req/s': r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts }));
}

export function printApiKeyResults(rows) {
  console.log('\n== API key vs session: GET /api/canary/status (autocannon → wrangler dev → workerd, local D1) ==');
  console.table(rows.map((r) => ({ ...r, 'req/s': Number(r['req/s'].toFixed(1)) })));
  const mean = (path, f) => rows.filter((r) => r.path === path).reduce((a, r) => a + f(r), 0) / rows.filter((r) => r.path === path).length;
  const costRatio = mean('session', (r) => r['req/s']) / mean('API key', (r) => r['req/s']);
  const p50Ratio = mean('API key', (r) => r.p50) / mean('session', (r) => r.p50);
  console.log(`  key path cost = ${costRatio.toFixed(2)}× the session path by throughput, ${p50Ratio.toFixed(2)}× by p50 (goal ≤ 1.2×: ${costRatio <= 1.2 ? 'met' : 'NOT met'})`);
}
