import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { MAX_WEBHOOKS_PER_USER, ZCreateWebhookInput } from '../src/contracts/webhooks';
import { createWebhook } from '../src/domains/webhooks/webhooks';
import { keyReusedDetail } from '../src/lib/create-retry';
import type { Principal } from '../src/middleware/context';
import { createServiceContext } from '../src/wiring/service-context';
import { api, signedInUser } from './helpers/api';

/**
 * A webhook endpoint's create sent again after its answer was lost (docs/decisions/create-retries.md): with the same
 * idempotency_key it answers with the endpoint the first try wrote, and the secret it was given — not a second
 * endpoint that would receive every event twice.
 */
const URL_OF_HOOK = 'https://hooks.example.com/afterword';
const body = (key: string, overrides: Record<string, unknown> = {}) => ({
  url: URL_OF_HOOK,
  event: 'missed_checkins',
  retry: true,
  idempotency_key: key,
  ...overrides,
});
const create = (token: string, json: unknown) => api('POST', '/api/developer/webhooks', { token, json });

const endpointsOf = async (userId: string) =>
  (await env.DB.prepare('SELECT id FROM webhooks WHERE user_id = ? ORDER BY created_at, id').bind(userId).all<{ id: string }>()).results.map((r) => r.id);

const principalOf = async (userId: string): Promise<Principal> => ({
  user: (await env.DB.prepare('SELECT * FROM users WHERE id = ?').bind(userId).first()) as never,
  via: 'session',
  sessionId: 'a session',
  scopes: '*',
});

/** Fills the owner's endpoints up to `count` with others of theirs (written as the table holds them). */
async function fill(userId: string, count: number) {
  if (!count) return;
  const now = Date.now();
  await env.DB.batch(
    Array.from({ length: count }, () =>
      env.DB.prepare(
        `INSERT INTO webhooks (id, user_id, url, event, secret_encrypted, secret_hint, retry, sandbox, status, created_at, updated_at) VALUES (?, ?, ?, 'missed_checkins', 'v1.x.y', 'abcd', 1, 0, 'active', ?, ?)`,
      ).bind(crypto.randomUUID(), userId, 'https://other.example.com/hook', now - 1_000, now - 1_000),
    ),
  );
}

describe('a webhook endpoint created again with the same idempotency_key', () => {
  it('answers the owner with the endpoint the first call wrote and the secret it generated, writing one', async () => {
    const owner = await signedInUser();
    const key = crypto.randomUUID();
    const first = await create(owner.token, body(key));
    const again = await create(owner.token, body(key));
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.data).toEqual(first.data);
    expect(again.data.hmac_secret).toMatch(/^whsec_/);
    expect(await endpointsOf(owner.id)).toEqual([first.data.id]);
  });

  it('answers with the secret the owner supplied, too', async () => {
    const owner = await signedInUser();
    const key = crypto.randomUUID();
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const first = await create(owner.token, body(key, { hmac_secret: secret }));
    const again = await create(owner.token, body(key, { hmac_secret: secret }));
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.data.id).toBe(first.data.id);
    expect(again.data.hmac_secret).toBe(secret);
  });

  it('writes one endpoint when the tries race each other', async () => {
    const owner = await signedInUser();
    const key = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(owner.token, body(key))));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    const ids = await endpointsOf(owner.id);
    expect(ids).toHaveLength(1);
    expect(answers.map((a) => a.data.id)).toEqual(Array(6).fill(ids[0]));
    expect(new Set(answers.map((a) => a.data.hmac_secret)).size).toBe(1);
  });

  it.each([
    [MAX_WEBHOOKS_PER_USER - 1, "one place left: the limit refuses the losers' rows"],
    [0, "room for all: the key's unique index refuses the losers"],
  ])('writes one endpoint when tries that all looked before any wrote race to the write (%i others already: %s)', async (others, _why) => {
    const owner = await signedInUser();
    await fill(owner.id, others);
    const input = ZCreateWebhookInput.parse(body(crypto.randomUUID()));
    const principal = await principalOf(owner.id);
    // Each try starts before any of them writes (their steps interleave in one isolate): the write decides.
    const answers = await Promise.all(Array.from({ length: 4 }, () => createWebhook(createServiceContext(env), principal, input)));
    const ids = await endpointsOf(owner.id);
    expect(ids).toHaveLength(others + 1);
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    expect(ids).toContain(answers[0]!.id);
    expect(new Set(answers.map((a) => a.hmac_secret)).size).toBe(1);
  });

  it('answers a retry whose first try took the last place, where the limit refuses a new endpoint (409)', async () => {
    const owner = await signedInUser();
    await fill(owner.id, MAX_WEBHOOKS_PER_USER - 1);
    const key = crypto.randomUUID();
    const first = await create(owner.token, body(key));
    const again = await create(owner.token, body(key));
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.data.id).toBe(first.data.id);
    expect((await create(owner.token, body(crypto.randomUUID()))).status).toBe(409);
  });

  it('refuses the key with another input (409), writing nothing', async () => {
    const owner = await signedInUser();
    const key = crypto.randomUUID();
    const first = await create(owner.token, body(key));
    const other = await create(owner.token, body(key, { url: 'https://hooks.example.com/elsewhere' }));
    expect(other.status).toBe(409);
    expect(other.data).toEqual({ detail: keyReusedDetail('webhook') });
    expect(await endpointsOf(owner.id)).toEqual([first.data.id]);
  });

  it("keeps an outsider's endpoint apart when they choose the same key", async () => {
    const [owner, outsider] = await Promise.all([signedInUser(), signedInUser()]);
    const key = 'the-same-key-for-both';
    const mine = await create(owner.token, body(key));
    const theirs = await create(outsider.token, body(key));
    expect(theirs.status).toBe(201);
    expect(theirs.data.id).not.toBe(mine.data.id);
    expect(theirs.data.hmac_secret).not.toBe(mine.data.hmac_secret);
    expect(await endpointsOf(outsider.id)).toEqual([theirs.data.id]);
  });

  it('writes a new endpoint for each call without a key, as before', async () => {
    const owner = await signedInUser();
    const plain = { ...body('unused-key'), idempotency_key: undefined };
    await create(owner.token, plain);
    await create(owner.token, plain);
    expect(await endpointsOf(owner.id)).toHaveLength(2);
  });

  it('refuses a key too short to name an endpoint (422), writing nothing', async () => {
    const owner = await signedInUser();
    const res = await create(owner.token, body('short'));
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.data.detail)).toContain('idempotency_key must be 8 to 100 characters');
    expect(await endpointsOf(owner.id)).toEqual([]);
  });
});
