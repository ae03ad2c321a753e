import { env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import type { OperationLimit } from '../src/api/route-doc';
import { relyingParty } from '../src/domains/passkeys/relying-party';
import { OPERATIONS } from '../src/wiring/operations';
import { api, signedInUser } from './helpers/api';
import { memorialBy } from './helpers/memorials';
import { SoftAuthenticator } from './helpers/soft-authenticator';
import { uploadVaultFile, withKeys } from './helpers/vault';

/**
 * Every limit an operation declares (`docs.limits`, worker/src/api/route-doc.ts `OperationLimit`) holds
 * however its requests interleave: requests fired at once on a fresh account create exactly what the limit
 * leaves room for, and the rest answer the declared refusal. The limit is part of the write
 * (worker/src/lib/limited-insert.ts, or one atomic counter), so this holds; before, each request counted
 * first and inserted after: 20 canary creations at once on Free made up to 20 canaries, 40 keys up to 40,
 * 12 guardians 12.
 *
 * The list of limits is the operations' own (the list the operations walk reads): a declared limit
 * without a way to fire it here fails, so a new limited operation is tested without anyone remembering to.
 */
const receiver = inject('webhookReceiver');

type Persona = Awaited<ReturnType<typeof signedInUser>>;

/** How to fire one declared limit: `n` requests at once, and what the limit counts afterwards. */
interface Firing {
  n: number;
  /** The limit for the test's account where the declaration says `plan` (a fresh account is on Free). */
  planMax?: number;
  /** Makes what the requests need and, where the window already holds some, how many it holds. */
  prepare?: (owner: Persona) => Promise<{ already: number } | undefined>;
  /** The i-th of the parallel requests (made after `prepare`). */
  request: (owner: Persona) => Promise<(i: number) => Promise<{ status: number }>>;
  /** What the limit counts, read from D1 afterwards. */
  count: (owner: Persona) => Promise<number | undefined>;
}

const rows = async (sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n;
const DAY = 86_400_000;

const FIRINGS: Record<string, Firing> = {
  'createCanary: canaries': {
    n: 20,
    planMax: 1,
    request:
      async ({ token }) =>
      () =>
        api('POST', '/api/canary/create', { token, json: { interval_seconds: 3600 } }),
    count: ({ id }) => rows('SELECT count(*) AS n FROM canaries WHERE user_id = ?', id),
  },
  'createApiKey: active API keys': {
    n: 40,
    request:
      async ({ token }) =>
      (i) =>
        api('POST', '/api/developer/keys', { token, json: { name: `k${i}`, scopes: ['read:canary'] } }),
    count: ({ id }) => rows('SELECT count(*) AS n FROM api_keys WHERE user_id = ? AND revoked_at IS NULL', id),
  },
  'createWebhook: webhook endpoints': {
    n: 110,
    request:
      async ({ token }) =>
      (i) =>
        api('POST', '/api/developer/webhooks', { token, json: { event: 'missed_checkins', retry: true, url: `${receiver.base}/hook/limit-${i}` } }),
    count: ({ id }) => rows('SELECT count(*) AS n FROM webhooks WHERE user_id = ?', id),
  },
  'assignGuardian: invited or active guardians': {
    n: 12,
    request:
      async ({ token }) =>
      (i) =>
        api('POST', '/api/guardian/assign', { token, json: { email: `guardian-${i}-${crypto.randomUUID().slice(0, 6)}@example.com`, consent: true } }),
    count: ({ id }) => rows("SELECT count(*) AS n FROM guardians WHERE owner_id = ? AND status IN ('invited', 'active')", id),
  },
  'assignGuardian: guardian invitations': {
    n: 6,
    // 18 invitations sent (and revoked) within the day: room for 2 more, although 5 guardian places are free.
    prepare: async ({ id }) => {
      const now = Date.now();
      for (let i = 0; i < 18; i++)
        await env.DB.prepare("INSERT INTO guardians (id, owner_id, email, status, invited_at, ended_at) VALUES (?1, ?2, ?3, 'revoked', ?4, ?4)")
          .bind(crypto.randomUUID(), id, `earlier-${i}@example.com`, now - 1000)
          .run();
      return { already: 18 };
    },
    request:
      async ({ token }) =>
      (i) =>
        api('POST', '/api/guardian/assign', { token, json: { email: `later-${i}-${crypto.randomUUID().slice(0, 6)}@example.com`, consent: true } }),
    count: ({ id }) => rows('SELECT count(*) AS n FROM guardians WHERE owner_id = ? AND invited_at > ?', id, Date.now() - DAY),
  },
  'runRehearsal: rehearsal': {
    n: 6,
    request:
      async ({ token }) =>
      () =>
        api('POST', '/api/rehearsal', { token, json: {} }),
    count: ({ id }) => rows('SELECT count(*) AS n FROM rehearsals WHERE user_id = ?', id),
  },
  'addContact: contact invitations': {
    n: 25,
    request:
      async ({ token }) =>
      (i) =>
        api('POST', '/api/contacts', { token, json: { email: `friend-${i}-${crypto.randomUUID().slice(0, 6)}@example.com` } }),
    count: ({ id }) => rows('SELECT count(*) AS n FROM contacts WHERE owner_id = ?', id),
  },
  'postOnMemorial: memorial posts': {
    n: 14,
    request: async ({ token }) => {
      const memorial = await memorialBy(await signedInUser());
      return (i) => api('POST', `/api/memorial/${memorial.id}/post`, { token, json: { text: `Remembering ${i}` } });
    },
    count: ({ id }) => rows('SELECT count(*) AS n FROM memorial_posts WHERE author_id = ?', id),
  },
  'registerPasskey: passkeys': {
    n: 23,
    // Each answer needs its own challenge and its own authenticator (one credential each), made first.
    request: async ({ token }) => {
      const rp = relyingParty(env);
      const answers = await Promise.all(
        Array.from({ length: 23 }, async () => {
          const start = await api('POST', '/api/passkeys/registration-options', { token });
          const response = await new SoftAuthenticator({ origin: rp.origin, rpId: rp.id }).create(start.data.options);
          return { challenge_id: start.data.challenge_id, response };
        }),
      );
      return (i) => api('POST', '/api/passkeys', { token, json: { ...answers[i]!, name: `Key ${i}` } });
    },
    count: ({ id }) => rows('SELECT count(*) AS n FROM passkeys WHERE user_id = ?', id),
  },
  'assignVaultItem: recipient': {
    n: 4,
    request: async (owner) => {
      const recipient = await signedInUser();
      await withKeys(recipient);
      const asset = await uploadVaultFile(owner, [recipient.id]);
      return () =>
        api('POST', '/api/vault/assign', {
          token: owner.token,
          json: { asset_id: asset.asset_id, recipient_user_id: recipient.id, condition_type: 'death_flag' },
        });
    },
    count: ({ id }) => rows('SELECT count(*) AS n FROM vault_items WHERE owner_id = ?', id),
  },
};

const declared = OPERATIONS.flatMap((op) => (op.docs.limits ?? []).map((limit: OperationLimit) => ({ key: `${op.docs.operationId}: ${limit.what}`, limit })));

/** Fires `n` copies of a request at once; returns how many answered each status. */
async function atOnce(n: number, request: (i: number) => Promise<{ status: number }>) {
  const statuses = (await Promise.all(Array.from({ length: n }, (_, i) => request(i)))).map((r) => r.status);
  const tally: Record<number, number> = {};
  for (const s of statuses) tally[s] = (tally[s] ?? 0) + 1;
  return tally;
}

describe('limits under parallel requests', () => {
  it('has a way to fire every declared limit, and declares every limit it fires', () => {
    expect(declared.map((d) => d.key).sort()).toEqual(Object.keys(FIRINGS).sort());
  });

  it.each(declared)('$key: requests at once on a fresh account create exactly what the limit leaves room for', async ({ key, limit }) => {
    const firing = FIRINGS[key]!;
    const max = limit.max === 'plan' ? firing.planMax! : limit.max;
    const owner = await signedInUser();
    const already = (await firing.prepare?.(owner))?.already ?? 0;
    expect(firing.n, 'fires more requests than the limit leaves room for').toBeGreaterThan(max - already);
    const tally = await atOnce(firing.n, await firing.request(owner));
    const created = (tally[201] ?? 0) + (tally[200] ?? 0);
    expect(created, JSON.stringify(tally)).toBe(max - already);
    expect(tally[limit.refusal], JSON.stringify(tally)).toBe(firing.n - created);
    expect(await firing.count(owner)).toBe(max);
  });
});
