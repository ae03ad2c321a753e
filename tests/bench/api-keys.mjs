// Key-authenticated vs session-authenticated GET /api/canary/status, same Worker, same run, same
// user (the goal: the key path must cost no more than 1.2× the session path). The user is moved to the
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
  const { id: keyId, key } = await res.json();
  const url = `${worker.origin}/api/canary/status`;
  const session = { url, headers: { authorization: `Bearer ${accessToken}` } };
  const keyed = { url, headers: { authorization: `Bearer ${key}` } };
  await cannon({ ...session, connections: 2, duration: 2 });
  const keyedWarmup = await cannon({ ...keyed, connections: 2, duration: 2 });
  const rows = [];
  // Interleaved twice, so drift over the run (thermal, other load) hits both paths alike.
  for (let round = 0; round < 2; round++) {
    rows.push({ path: 'session', ...(await cannon({ ...session, connections, duration })) });
    rows.push({ path: 'API key', ...(await cannon({ ...keyed, connections, duration })) });
  }
  // Every answered key call must be counted once: the warm-up and both measured runs, against what the
  // owner's key list says and what D1 holds once the usage buffer has written (it writes 50 ms late).
  const answered = [keyedWarmup, ...rows.filter((r) => r.path === 'API key')].reduce((n, r) => n + r['2xx'], 0);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const listed = await fetch(`${worker.origin}/api/developer/keys`, { headers: { authorization: `Bearer ${accessToken}` } }).then((r) => r.json());
  const [stored] = await d1(worker.persistDir, `SELECT coalesce(sum(count), 0) AS n FROM api_usage WHERE key_id = '${keyId}'`);
  return {
    rows: rows.map((r) => ({
      path: r.path,
      connections,
      'req/s': r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors + r.timeouts,
    })),
    // A run's last requests (one per connection) reach the Worker but are cut off before autocannon reads them.
    counting: { answered, inFlightAtEnds: 2 + 2 * connections, listed: listed.find((k) => k.id === keyId)?.usage_count, stored: Number(stored?.n) },
  };
}

export function printApiKeyResults({ rows, counting }) {
  console.log('\n== API key vs session: GET /api/canary/status (autocannon → wrangler dev → workerd, local D1) ==');
  console.table(rows.map((r) => ({ ...r, 'req/s': Number(r['req/s'].toFixed(1)) })));
  const mean = (path, f) => rows.filter((r) => r.path === path).reduce((a, r) => a + f(r), 0) / rows.filter((r) => r.path === path).length;
  const costRatio = mean('session', (r) => r['req/s']) / mean('API key', (r) => r['req/s']);
  const p50Ratio = mean('API key', (r) => r.p50) / mean('session', (r) => r.p50);
  console.log(
    `  key path cost = ${costRatio.toFixed(2)}× the session path by throughput, ${p50Ratio.toFixed(2)}× by p50 (goal ≤ 1.2×: ${costRatio <= 1.2 ? 'met' : 'NOT met'})`,
  );
  const { answered, inFlightAtEnds, listed, stored } = counting;
  const exact = listed === stored && stored >= answered && stored <= answered + inFlightAtEnds;
  console.log(
    `  metering: ${answered} key calls answered 2xx (+ at most ${inFlightAtEnds} cut off at the runs' ends); usage_count ${listed} on the key list, ${stored} in D1 (${exact ? 'every call counted once' : 'MISMATCH'})`,
  );
}
