import { env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import type { RecordedStripeRequest } from './peers/stripe';
import { openBillingPortal } from '../src/domains/billing/portal';
import { endLapsedSandboxSubscriptions } from '../src/domains/billing/sandbox-portal';
import type { Bindings } from '../src/env';
import { createServiceContext } from '../src/wiring/service-context';
import { api, signedInUser } from './helpers/api';
import { checkoutThroughSandbox, postEvent } from './helpers/billing';

/**
 * A paid plan can be ended by its owner (docs/decisions/billing.md "Managing a subscription"): Stripe's customer
 * portal in production, the sandbox's portal locally; every change arrives as the provider's signed event.
 */
const peer = inject('stripePeer');
const DAY = 86_400_000;

type Persona = Awaited<ReturnType<typeof signedInUser>>;

/** Plays a sandbox portal action through the webhook, as the portal page does. */
async function portal(person: Persona, action: 'cancel' | 'resume' | 'switch_cycle' | 'update_card') {
  const signed = await api('POST', `/api/billing/sandbox-portal/${action}`, { token: person.token });
  expect(signed.status, signed.text).toBe(200);
  const delivered = await api('POST', '/api/billing/webhook', {
    body: signed.data.payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signed.data.signature },
  });
  expect(delivered.data).toMatchObject({ applied: true });
}

const billingOf = async (person: Persona) => (await api('GET', '/api/billing', { token: person.token })).data;

async function subscriber(cycle: 'monthly' | 'annual' = 'monthly') {
  const owner = await signedInUser();
  await checkoutThroughSandbox(owner.token, 'plus', cycle, 'pay');
  return owner;
}

describe('managing a subscription', () => {
  it('Stripe: the portal is a customer portal session for the customer, returning to billing', async () => {
    const owner = await subscriber();
    const key = `sk_test_${crypto.randomUUID().replaceAll('-', '')}`;
    const ctx = createServiceContext({ ...env, BILLING_PROVIDER: 'stripe', STRIPE_SECRET_KEY: key, STRIPE_API_BASE: peer.baseUrl } as unknown as Bindings);
    await env.DB.prepare("UPDATE billing_accounts SET provider = 'stripe' WHERE user_id = ?").bind(owner.id).run();
    const { url } = await openBillingPortal(ctx, { id: owner.id });
    expect(url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/test_bps_/);
    const [sent] = (await (await fetch(`${peer.baseUrl}/__requests?key=${key}`)).json()) as RecordedStripeRequest[];
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/billing_portal/sessions', contentType: 'application/x-www-form-urlencoded' });
    expect(sent!.form).toEqual({ customer: `cus_sandbox_${owner.id.replaceAll('-', '')}`, return_url: expect.stringMatching(/\/app\/billing$/) });
  });

  it('a subscriber can manage; the sandbox portal is the app’s own page', async () => {
    const owner = await subscriber();
    expect(await billingOf(owner)).toMatchObject({ plan: 'plus', can_manage: true, cancel_at_period_end: false });
    const res = await api('POST', '/api/billing/portal', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.data.url).toMatch(/\/app\/billing\/portal$/);
  });

  it('cancelling keeps the plan to the end of the paid period, and can be taken back', async () => {
    const owner = await subscriber();
    const before = await billingOf(owner);
    await portal(owner, 'cancel');
    expect(await billingOf(owner)).toMatchObject({ plan: 'plus', status: 'active', cancel_at_period_end: true, renews_at: before.renews_at });
    await portal(owner, 'resume');
    expect(await billingOf(owner)).toMatchObject({ plan: 'plus', cancel_at_period_end: false, renews_at: before.renews_at });
  });

  it('at the end of a cancelled period the plan ends, the owner is told, and nothing made is deleted', async () => {
    const owner = await subscriber();
    const canary = await api('POST', '/api/canary/create', { token: owner.token, json: { interval_seconds: 3600 } });
    expect(canary.status).toBe(201);
    await portal(owner, 'cancel');
    const { renews_at } = await billingOf(owner);
    const justBefore = createServiceContext(env, () => new Date(Date.parse(renews_at) - 60_000));
    expect(await endLapsedSandboxSubscriptions(justBefore)).toBe(0);
    const after = createServiceContext(env, () => new Date(Date.parse(renews_at) + 60_000));
    expect(await endLapsedSandboxSubscriptions(after)).toBeGreaterThanOrEqual(1);
    expect(await billingOf(owner)).toMatchObject({ plan: 'free', status: 'canceled', can_manage: false, cancel_at_period_end: false });
    const notice = await env.DB.prepare("SELECT subject FROM owner_notices WHERE user_id = ? AND subject = 'Your Afterword subscription has ended'")
      .bind(owner.id)
      .first();
    expect(notice).not.toBeNull();
    expect((await api('GET', '/api/canary/list', { token: owner.token })).data).toHaveLength(1);
    // Ended once: a second cron run sends nothing more.
    expect(await endLapsedSandboxSubscriptions(after)).toBe(0);
  });

  it('switching monthly to annual starts a year from now', async () => {
    const owner = await subscriber('monthly');
    await portal(owner, 'switch_cycle');
    const b = await billingOf(owner);
    expect(b).toMatchObject({ plan: 'plus', cycle: 'annual', status: 'active' });
    expect(Date.parse(b.renews_at) - Date.now()).toBeGreaterThan(360 * DAY);
  });

  it('a new card brings a subscription whose payment failed back to its plan', async () => {
    const owner = await subscriber();
    const sub = await env.DB.prepare('SELECT subscription_id, customer_id FROM billing_accounts WHERE user_id = ?')
      .bind(owner.id)
      .first<{ subscription_id: string; customer_id: string }>();
    const failed = await postEvent({
      id: `evt_fail_${crypto.randomUUID()}`,
      type: 'invoice.payment_failed',
      data: { object: { id: 'in_1', customer: sub!.customer_id, subscription: sub!.subscription_id } },
    });
    expect(failed.data).toMatchObject({ applied: true });
    expect(await billingOf(owner)).toMatchObject({ plan: 'free', status: 'past_due', can_manage: true });
    await portal(owner, 'update_card');
    expect(await billingOf(owner)).toMatchObject({ plan: 'plus', status: 'active' });
  });

  it('someone with nothing to manage is told so (409), in the portal and the sandbox alike', async () => {
    const free = await signedInUser();
    for (const path of ['/api/billing/portal', '/api/billing/sandbox-portal/cancel']) {
      const res = await api('POST', path, { token: free.token });
      expect([res.status, res.data.detail]).toEqual([409, 'You have no subscription to manage. Choose a plan on the pricing page.']);
    }
    const lifetime = await signedInUser();
    await checkoutThroughSandbox(lifetime.token, 'plus', 'lifetime', 'pay');
    expect(await billingOf(lifetime)).toMatchObject({ plan: 'plus', can_manage: false });
    // An action the portal does not have is no path at all.
    expect((await api('POST', '/api/billing/sandbox-portal/refund', { token: lifetime.token })).status).toBe(404);
  });
});
