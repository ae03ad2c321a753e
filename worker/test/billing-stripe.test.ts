import { env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import type { RecordedStripeRequest } from './peers/stripe';
import { deleteAccount } from '../src/domains/account/delete-account';
import { receiveWebhook } from '../src/domains/billing/apply-event';
import { createCheckout, quoteCheckout } from '../src/domains/billing/checkout';
import { FAMILY_COUPON_ID } from '../src/domains/billing/providers/stripe';
import type { Bindings } from '../src/env';
import { createServiceContext } from '../src/wiring/service-context';
import { api, signedInUser } from './helpers/api';
import { LOCAL_WEBHOOK_SECRET } from './helpers/billing';
import { confirmDeathDirectly, guardianOf } from './helpers/guardian';

const peer = inject('stripePeer');

/** A Worker context whose provider is Stripe at the local peer, with a secret key of the test's own. */
function stripeContext() {
  const key = `sk_test_${crypto.randomUUID().replaceAll('-', '')}`;
  const ctx = createServiceContext({ ...env, BILLING_PROVIDER: 'stripe', STRIPE_SECRET_KEY: key, STRIPE_API_BASE: peer.baseUrl } as unknown as Bindings);
  const requests = async () => (await (await fetch(`${peer.baseUrl}/__requests?key=${key}`)).json()) as RecordedStripeRequest[];
  return { ctx, key, requests };
}

const userRow = async (id: string) =>
  (await env.DB.prepare('SELECT id, plan, email FROM users WHERE id = ?').bind(id).first<{ id: string; plan: 'free'; email: string }>())!;

describe('the Stripe adapter, against a peer that speaks Stripe', () => {
  it('opens an annual plan as a subscription-mode Checkout Session, form-encoded with the Bearer key, and the signed completion changes the plan', async () => {
    const owner = await signedInUser();
    const { ctx, key, requests } = stripeContext();
    const session = await createCheckout(ctx, await userRow(owner.id), { plan: 'plus', cycle: 'annual' });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`https://checkout.stripe.com/c/pay/${session.id}`);
    const [sent] = await requests();
    expect(sent).toMatchObject({ path: '/v1/checkout/sessions', authorization: `Bearer ${key}`, contentType: 'application/x-www-form-urlencoded' });
    expect(sent!.form).toMatchObject({
      mode: 'subscription',
      client_reference_id: owner.id,
      customer_email: owner.email,
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '4900',
      'line_items[0][price_data][recurring][interval]': 'year',
      'metadata[plan]': 'plus',
      'subscription_data[metadata][user_id]': owner.id,
    });
    expect(sent!.form['discounts[0][coupon]']).toBeUndefined();

    // Stripe sends the event, signed with the endpoint's secret (here the local one the Worker holds).
    const signed = (await (
      await fetch(`${peer.baseUrl}/__complete?key=${key}`, { method: 'POST', body: JSON.stringify({ session: session.id, secret: LOCAL_WEBHOOK_SECRET }) })
    ).json()) as {
      payload: string;
      signature: string;
    };
    const delivered = await api('POST', '/api/billing/webhook', {
      body: signed.payload,
      headers: { 'stripe-signature': signed.signature, 'content-type': 'application/json' },
    });
    expect(delivered.data).toMatchObject({ applied: true });
    const billing = await api('GET', '/api/billing', { token: owner.token });
    expect(billing.data).toMatchObject({ plan: 'plus', cycle: 'annual', status: 'active' });
    const account = await env.DB.prepare('SELECT provider, subscription_id, customer_id FROM billing_accounts WHERE user_id = ?').bind(owner.id).first();
    expect(account).toMatchObject({ provider: 'stripe', subscription_id: expect.stringMatching(/^sub_/), customer_id: expect.stringMatching(/^cus_/) });
  });

  it('opens lifetime and memorial closeout in payment mode, with no recurring price', async () => {
    const owner = await signedInUser();
    const { ctx, requests } = stripeContext();
    await createCheckout(ctx, await userRow(owner.id), { plan: 'pro', cycle: 'lifetime' });
    await createCheckout(ctx, await userRow(owner.id), { plan: 'immortality', cycle: 'memorial_closeout' });
    const [lifetime, closeout] = await requests();
    expect(lifetime!.form).toMatchObject({ mode: 'payment', 'line_items[0][price_data][unit_amount]': '34900' });
    expect(closeout!.form).toMatchObject({ mode: 'payment', 'line_items[0][price_data][unit_amount]': '29900', 'metadata[cycle]': 'memorial_closeout' });
    for (const r of [lifetime!, closeout!]) expect(r.form['line_items[0][price_data][recurring][interval]']).toBeUndefined();
  });

  it('applies the 40 % family continuation coupon to someone carrying on a confirmed-dead person’s legacy, creating the coupon once', async () => {
    const [deceased, guardian, stranger] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    await guardianOf(deceased, guardian);
    await confirmDeathDirectly(deceased.id, Date.now());
    const { ctx, requests } = stripeContext();

    const quote = await quoteCheckout(ctx, await userRow(guardian.id), { plan: 'plus', cycle: 'monthly' });
    expect(quote).toMatchObject({ list_cents: 499, amount_cents: 299, discount_percent: 40, interval: 'month' });
    expect(await quoteCheckout(ctx, await userRow(stranger.id), { plan: 'plus', cycle: 'monthly' })).toMatchObject({ amount_cents: 499, discount_percent: 0 });

    await createCheckout(ctx, await userRow(guardian.id), { plan: 'plus', cycle: 'monthly' });
    await createCheckout(ctx, await userRow(guardian.id), { plan: 'pro', cycle: 'annual' });
    const sent = await requests();
    expect(sent.map((r) => r.path)).toEqual(['/v1/coupons', '/v1/checkout/sessions', '/v1/coupons', '/v1/checkout/sessions']);
    expect(sent[0]!.form).toMatchObject({ id: FAMILY_COUPON_ID, percent_off: '40', duration: 'forever' });
    expect(sent[1]!.form['discounts[0][coupon]']).toBe(FAMILY_COUPON_ID);
    expect(sent[3]!.form['discounts[0][coupon]']).toBe(FAMILY_COUPON_ID); // the second create was "already exists"
  });

  it('cancels a running subscription at Stripe when the account is erased', async () => {
    const owner = await signedInUser();
    const { ctx, key, requests } = stripeContext();
    await env.DB.prepare(
      "INSERT INTO billing_accounts (user_id, plan, cycle, status, provider, customer_id, subscription_id, period_end, updated_at) VALUES (?1, 'plus', 'monthly', 'active', 'stripe', 'cus_1', 'sub_running', NULL, 0)",
    )
      .bind(owner.id)
      .run();
    await deleteAccount(ctx, owner.id);
    expect((await requests()).map((r) => ({ method: r.method, path: r.path, authorization: r.authorization }))).toEqual([
      { method: 'DELETE', path: '/v1/subscriptions/sub_running', authorization: `Bearer ${key}` },
    ]);
    expect(await env.DB.prepare('SELECT 1 FROM billing_accounts WHERE user_id = ?').bind(owner.id).first()).toBeNull();
  });

  it('cancels the running subscription at Stripe when a new plan’s checkout completes, so nobody pays for two', async () => {
    const owner = await signedInUser();
    const { ctx, key, requests } = stripeContext();
    await env.DB.prepare(
      "INSERT INTO billing_accounts (user_id, plan, cycle, status, provider, customer_id, subscription_id, period_end, updated_at) VALUES (?1, 'plus', 'monthly', 'active', 'stripe', 'cus_1', 'sub_old', NULL, 0)",
    )
      .bind(owner.id)
      .run();
    const session = await createCheckout(ctx, await userRow(owner.id), { plan: 'pro', cycle: 'annual' });
    const signed = (await (
      await fetch(`${peer.baseUrl}/__complete?key=${key}`, { method: 'POST', body: JSON.stringify({ session: session.id, secret: LOCAL_WEBHOOK_SECRET }) })
    ).json()) as { payload: string; signature: string };
    expect(await receiveWebhook(ctx, signed.payload, signed.signature)).toMatchObject({ applied: true });
    expect((await requests()).filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/v1/subscriptions/sub_old']);
    const account = await env.DB.prepare('SELECT plan, subscription_id FROM billing_accounts WHERE user_id = ?')
      .bind(owner.id)
      .first<{ plan: string; subscription_id: string }>();
    expect(account!.plan).toBe('pro');
    expect(account!.subscription_id).not.toBe('sub_old');
  });

  it('answers a refused key without a charge, as an error with a detail and no session kept', async () => {
    const owner = await signedInUser();
    const ctx = createServiceContext({
      ...env,
      BILLING_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'rk_wrong',
      STRIPE_API_BASE: peer.baseUrl,
    } as unknown as Bindings);
    await expect(createCheckout(ctx, await userRow(owner.id), { plan: 'plus', cycle: 'annual' })).rejects.toMatchObject({
      code: 'INTERNAL',
      detail: expect.stringMatching(/Nothing was charged/),
    });
    const kept = await env.DB.prepare('SELECT COUNT(*) AS n FROM checkout_sessions WHERE user_id = ?').bind(owner.id).first<{ n: number }>();
    expect(kept?.n).toBe(0);
  });
});
