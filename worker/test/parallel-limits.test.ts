import { env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { MAX_ACTIVE_API_KEYS } from '../src/contracts/developer';
import { MAX_GUARDIANS } from '../src/contracts/guardian';
import { MAX_WEBHOOKS_PER_USER } from '../src/contracts/webhooks';
import { api, signedInUser } from './helpers/api';

/**
 * Every limit of an account holds however its requests interleave: the limit is part of the insert
 * (worker/src/lib/limited-insert.ts), so parallel requests on a fresh account create exactly the limit.
 * Before, each request counted first and inserted after: 20 canary creations at once on Free made up to
 * 20 canaries, 40 keys up to 40, 12 guardians 12.
 */
const receiver = inject('webhookReceiver');

/** Fires `n` copies of a request at once; returns how many answered each status. */
async function atOnce(n: number, request: (i: number) => Promise<{ status: number }>) {
  const statuses = (await Promise.all(Array.from({ length: n }, (_, i) => request(i)))).map((r) => r.status);
  const tally: Record<number, number> = {};
  for (const s of statuses) tally[s] = (tally[s] ?? 0) + 1;
  return tally;
}

const rows = async (sql: string, id: string) => (await env.DB.prepare(sql).bind(id).first<{ n: number }>())?.n;

/** Each limited operation: the request, its limit, its refusal, and the rows that count. */
const limited = [
  {
    what: 'canaries on Free (1)',
    n: 20,
    max: 1,
    refusal: 403,
    request: (token: string) => () => api('POST', '/api/canary/create', { token, json: { interval_seconds: 3600 } }),
    count: (id: string) => rows('SELECT count(*) AS n FROM canaries WHERE user_id = ?', id),
  },
  {
    what: `active API keys (${MAX_ACTIVE_API_KEYS})`,
    n: 40,
    max: MAX_ACTIVE_API_KEYS,
    refusal: 403,
    request: (token: string) => (i: number) => api('POST', '/api/developer/keys', { token, json: { name: `k${i}`, scopes: ['read:canary'] } }),
    count: (id: string) => rows('SELECT count(*) AS n FROM api_keys WHERE user_id = ? AND revoked_at IS NULL', id),
  },
  {
    what: `webhook endpoints (${MAX_WEBHOOKS_PER_USER})`,
    n: MAX_WEBHOOKS_PER_USER + 10,
    max: MAX_WEBHOOKS_PER_USER,
    refusal: 409,
    request: (token: string) => (i: number) =>
      api('POST', '/api/developer/webhooks', { token, json: { event: 'missed_checkins', retry: true, url: `${receiver.base}/hook/limit-${i}` } }),
    count: (id: string) => rows('SELECT count(*) AS n FROM webhooks WHERE user_id = ?', id),
  },
  {
    what: `guardians (${MAX_GUARDIANS})`,
    n: 12,
    max: MAX_GUARDIANS,
    refusal: 403,
    request: (token: string) => (i: number) =>
      api('POST', '/api/guardian/assign', { token, json: { email: `guardian-${i}-${crypto.randomUUID().slice(0, 6)}@example.com`, consent: true } }),
    count: (id: string) => rows("SELECT count(*) AS n FROM guardians WHERE owner_id = ? AND status IN ('invited', 'active')", id),
  },
  {
    what: 'rehearsals (1 per 10 minutes)',
    n: 6,
    max: 1,
    refusal: 429,
    request: (token: string) => () => api('POST', '/api/rehearsal', { token, json: {} }),
    count: (id: string) => rows('SELECT count(*) AS n FROM rehearsals WHERE user_id = ?', id),
  },
];

describe('limits under parallel requests', () => {
  it.each(limited)('$what: $n at once on a fresh account create exactly the limit', async ({ n, max, refusal, request, count }) => {
    const owner = await signedInUser();
    const tally = await atOnce(n, request(owner.token));
    const created = (tally[201] ?? 0) + (tally[200] ?? 0);
    expect(created, JSON.stringify(tally)).toBe(max);
    expect(tally[refusal], JSON.stringify(tally)).toBe(n - max);
    expect(await count(owner.id)).toBe(max);
  });
});
