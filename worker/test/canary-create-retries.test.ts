import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { ZCreateCanaryInput } from '../src/contracts/canary';
import { createCanary } from '../src/domains/canary/create-canary';
import type { Bindings } from '../src/env';
import { keyReusedDetail } from '../src/lib/create-retry';
import { createServiceContext } from '../src/wiring/service-context';
import { api, signedInUser } from './helpers/api';

/**
 * A canary's create sent again after its answer was lost (docs/decisions/create-retries.md): with the same
 * idempotency_key it answers with the canary the first try wrote — not a second canary, nor the plan's limit.
 */
const body = (key: string, overrides: Record<string, unknown> = {}) => ({
  name: 'Morning check',
  interval_seconds: 86_400,
  idempotency_key: key,
  ...overrides,
});

const canariesOf = async (userId: string) =>
  (await env.DB.prepare('SELECT id FROM canaries WHERE user_id = ? ORDER BY created_at').bind(userId).all<{ id: string }>()).results.map((r) => r.id);

const timerOf = async (id: string) =>
  (await env.DB.prepare('SELECT timer_due_at FROM canaries WHERE id = ?').bind(id).first<{ timer_due_at: number | null }>())!.timer_due_at;

const userRow = async (id: string) => (await env.DB.prepare('SELECT * FROM users WHERE id = ?').bind(id).first())!;

describe('a canary created again with the same idempotency_key', () => {
  it("answers the owner with the canary the first call wrote, its token too, where the Free plan's limit would refuse a second", async () => {
    const owner = await signedInUser();
    const key = crypto.randomUUID();
    const first = await api('POST', '/api/canary/create', { token: owner.token, json: body(key) });
    const again = await api('POST', '/api/canary/create', { token: owner.token, json: body(key) });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.data.id).toBe(first.data.id);
    expect(again.data.token).toBe(first.data.token);
    expect(await canariesOf(owner.id)).toEqual([first.data.id]);
    // A new canary is still refused by the plan.
    expect((await api('POST', '/api/canary/create', { token: owner.token, json: body(crypto.randomUUID()) })).status).toBe(403);
  });

  it('writes one canary when the tries race each other', async () => {
    const owner = await signedInUser();
    const key = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, () => api('POST', '/api/canary/create', { token: owner.token, json: body(key) })));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    const ids = await canariesOf(owner.id);
    expect(ids).toHaveLength(1);
    expect(new Set(answers.map((a) => a.data.id))).toEqual(new Set(ids));
  });

  it.each([
    ['free', "its limit refuses the losers' rows"],
    ['pro', "no limit: the key's unique index refuses the losers"],
  ] as const)('writes one canary when tries that all looked before any wrote race to the write, on %s (%s)', async (plan, _why) => {
    const owner = await signedInUser();
    await env.DB.prepare('UPDATE users SET plan = ? WHERE id = ?').bind(plan, owner.id).run();
    const input = ZCreateCanaryInput.parse(body(crypto.randomUUID()));
    const user = await userRow(owner.id);
    // Each try starts before any of them writes (their steps interleave in one isolate): the write decides.
    const answers = await Promise.all(Array.from({ length: 4 }, () => createCanary(createServiceContext(env), user as never, input)));
    const ids = await canariesOf(owner.id);
    expect(ids).toHaveLength(1);
    expect(answers.map((a) => a.id)).toEqual(Array(4).fill(ids[0]));
  });

  it('refuses the key with another input (409), writing nothing', async () => {
    const owner = await signedInUser();
    await env.DB.prepare("UPDATE users SET plan = 'pro' WHERE id = ?").bind(owner.id).run();
    const key = crypto.randomUUID();
    const first = await api('POST', '/api/canary/create', { token: owner.token, json: body(key) });
    const other = await api('POST', '/api/canary/create', { token: owner.token, json: body(key, { name: 'Evening check' }) });
    expect(other.status).toBe(409);
    expect(other.data).toEqual({ detail: keyReusedDetail('canary') });
    expect(await canariesOf(owner.id)).toEqual([first.data.id]);
  });

  it("keeps an outsider's canary apart when they choose the same key", async () => {
    const [owner, outsider] = await Promise.all([signedInUser(), signedInUser()]);
    const key = 'the-same-key-for-both';
    const mine = await api('POST', '/api/canary/create', { token: owner.token, json: body(key) });
    const theirs = await api('POST', '/api/canary/create', { token: outsider.token, json: body(key) });
    expect(theirs.status).toBe(201);
    expect(theirs.data.id).not.toBe(mine.data.id);
    expect(await canariesOf(outsider.id)).toEqual([theirs.data.id]);
    expect(await canariesOf(owner.id)).toEqual([mine.data.id]);
  });

  it('writes a new canary for each call without a key, as before', async () => {
    const owner = await signedInUser();
    await env.DB.prepare("UPDATE users SET plan = 'pro' WHERE id = ?").bind(owner.id).run();
    const plain = { ...body('unused-key'), idempotency_key: undefined };
    await api('POST', '/api/canary/create', { token: owner.token, json: plain });
    await api('POST', '/api/canary/create', { token: owner.token, json: plain });
    expect(await canariesOf(owner.id)).toHaveLength(2);
  });

  it('refuses a key too short to name a canary (422), writing nothing', async () => {
    const owner = await signedInUser();
    const res = await api('POST', '/api/canary/create', { token: owner.token, json: body('short') });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.data.detail)).toContain('idempotency_key must be 8 to 100 characters');
    expect(await canariesOf(owner.id)).toEqual([]);
  });

  it('arms the timer a first try that died after its write never armed', async () => {
    const owner = await signedInUser();
    const input = body(crypto.randomUUID());
    // The first try's canary object cannot be reached: its canary is written, its timer is not.
    const unreachable = {
      ...env,
      CANARY_CLOCK: {
        ...env.CANARY_CLOCK,
        idFromName: env.CANARY_CLOCK.idFromName.bind(env.CANARY_CLOCK),
        get: () => {
          throw new Error('the canary object is out of reach');
        },
      },
    } as unknown as Bindings;
    const first = await createCanary(createServiceContext(unreachable), (await userRow(owner.id)) as never, ZCreateCanaryInput.parse(input));
    expect(await timerOf(first.id)).toBeNull();

    const again = await api('POST', '/api/canary/create', { token: owner.token, json: input });
    expect(again.status).toBe(201);
    expect(again.data.id).toBe(first.id);
    expect(await timerOf(first.id)).toBe(Date.parse(again.data.last_check_in) + 0.8 * 86_400_000);
  });
});
