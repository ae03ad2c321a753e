import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { quoteCheckout } from '../src/domains/billing/checkout';
import type { Bindings } from '../src/env';
import { createServiceContext } from '../src/wiring/service-context';
import { api, signedInUser } from './helpers/api';

describe('GET /api/billing/quote', () => {
  it('says what a memorial closeout charges and how each limit changes', async () => {
    const owner = await signedInUser();
    const res = await api('GET', '/api/billing/quote?plan=pro&cycle=memorial_closeout', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      plan: 'pro',
      plan_name: 'Pro',
      cycle: 'memorial_closeout',
      list_cents: 14900,
      amount_cents: 14900,
      discount_percent: 0,
      interval: null,
      years: 10,
      changes: ['Canaries: 1 → unlimited', 'Storage: 1 GB → 100 GB', 'Voice minutes per session: 0 → 20', 'API calls a month: 100 → 10,000'],
      current_plan: 'free',
    });
    const trpc = await api('GET', `/api/trpc/billing.quote?input=${encodeURIComponent(JSON.stringify({ plan: 'pro', cycle: 'memorial_closeout' }))}`, {
      token: owner.token,
    });
    expect(trpc.data.result.data).toEqual(res.data);
  });

  it('refuses an unknown plan or cycle with 422, and Free is not for sale', async () => {
    const owner = await signedInUser();
    expect((await api('GET', '/api/billing/quote?plan=free&cycle=annual', { token: owner.token })).status).toBe(422);
    expect((await api('GET', '/api/billing/quote?plan=plus&cycle=weekly', { token: owner.token })).status).toBe(422);
    expect((await api('POST', '/api/billing/checkout', { token: owner.token, json: { plan: 'gold', cycle: 'annual' } })).status).toBe(422);
    expect((await api('GET', '/api/billing/quote?plan=plus&cycle=annual')).status).toBe(401);
  });

  it('charges the build-time price override (PRICING_OVERRIDES), as the page shows it', async () => {
    const owner = await signedInUser();
    const ctx = createServiceContext({ ...env, PRICING_OVERRIDES: '{"plus":{"annual":39}}' } as unknown as Bindings);
    const user = (await env.DB.prepare('SELECT id, plan FROM users WHERE id = ?').bind(owner.id).first<{ id: string; plan: 'free' }>())!;
    expect(await quoteCheckout(ctx, user, { plan: 'plus', cycle: 'annual' })).toMatchObject({ list_cents: 3900, amount_cents: 3900, interval: 'year' });
  });
});
