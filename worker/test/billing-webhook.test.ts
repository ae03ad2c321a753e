import { env } from 'cloudflare:test';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { periodEnd } from '../src/domains/billing/apply-event';
import { signStripePayload, verifyStripeSignature } from '../src/domains/billing/stripe-signature';
import { api, signedInUser } from './helpers/api';
import { checkoutThroughSandbox, postEvent, stripeSignature } from './helpers/billing';
import { captureQueues } from './helpers/messages';

const billingOf = async (token: string) => (await api('GET', '/api/billing', { token })).data;

describe("Stripe's signature scheme", () => {
  const payload = '{"id":"evt_test","object":"event"}';
  const t = 1_700_000_000;

  it('signs a known vector as Stripe documents it (HMAC-SHA256 of t, a dot and the payload)', async () => {
    // Computed once with Python's hmac module, and again here with node:crypto.
    const known = '8042376f6ca064adbe037642a718227dfd59047137eb49497a54c49eb0cfb724';
    expect(createHmac('sha256', 'whsec_test_secret').update(`${t}.${payload}`).digest('hex')).toBe(known);
    expect(await signStripePayload('whsec_test_secret', payload, t)).toBe(`t=${t},v1=${known}`);
  });

  it('accepts a header with any matching v1 within 300 seconds, and refuses a stale, a future, a wrong or a missing one', async () => {
    const good = createHmac('sha256', 'whsec_test_secret').update(`${t}.${payload}`).digest('hex');
    await expect(
      verifyStripeSignature('whsec_test_secret', payload, `t=${t},v1=${'0'.repeat(64)},v1=${good},v0=zz`, (t + 300) * 1000),
    ).resolves.toBeUndefined();
    await expect(verifyStripeSignature('whsec_test_secret', payload, `t=${t},v1=${good}`, (t + 301) * 1000)).rejects.toThrow(/tolerance/);
    await expect(verifyStripeSignature('whsec_test_secret', payload, `t=${t},v1=${good}`, (t - 301) * 1000)).rejects.toThrow(/tolerance/);
    await expect(verifyStripeSignature('whsec_other', payload, `t=${t},v1=${good}`, t * 1000)).rejects.toThrow(/no signature matches/);
    await expect(verifyStripeSignature('whsec_test_secret', `${payload} `, `t=${t},v1=${good}`, t * 1000)).rejects.toThrow(/no signature matches/);
    await expect(verifyStripeSignature('whsec_test_secret', payload, `v1=${good}`, t * 1000)).rejects.toThrow(/no timestamp/);
    await expect(verifyStripeSignature('whsec_test_secret', payload, undefined, t * 1000)).rejects.toThrow(/missing/);
  });
});

describe('POST /api/billing/webhook', () => {
  it('applies a paid checkout: the plan, cycle and renewal change at once', async () => {
    const owner = await signedInUser();
    const before = Date.now();
    const { delivered } = await checkoutThroughSandbox(owner.token, 'plus', 'annual');
    const after = Date.now();
    expect(delivered).toEqual({ received: true, applied: true, duplicate: false, ignored: false });
    const billing = await billingOf(owner.token);
    expect(billing).toMatchObject({ plan: 'plus', purchased_plan: 'plus', cycle: 'annual', status: 'active', provider: 'sandbox', ends_at: null });
    // The same calendar day and minute a year later (UTC), whatever the year's length.
    const renews = new Date(billing.renews_at).getTime();
    expect(renews).toBeGreaterThanOrEqual(periodEnd('annual', 'plus', before)!);
    expect(renews).toBeLessThanOrEqual(periodEnd('annual', 'plus', after)!);
    expect(new Date(periodEnd('annual', 'plus', Date.parse('2026-11-24T22:40:30Z'))!).toISOString()).toBe('2027-11-24T22:40:00.000Z');
    expect(billing.meters.find((m: { key: string }) => m.key === 'canaries')).toMatchObject({ used: 0, limit: 3 });
  });

  it('five parallel "Pay" on one sandbox checkout pay once: one event, applied once', async () => {
    const owner = await signedInUser();
    const session = await api('POST', '/api/billing/checkout', { token: owner.token, json: { plan: 'pro', cycle: 'monthly' } });
    const paid = await Promise.all(Array.from({ length: 5 }, () => api('POST', `/api/billing/sandbox/${session.data.id}/pay`, { token: owner.token })));
    const delivered = await Promise.all(
      paid
        .filter((p) => p.status === 200)
        .map((p) =>
          api('POST', '/api/billing/webhook', { body: p.data.payload, headers: { 'content-type': 'application/json', 'stripe-signature': p.data.signature } }),
        ),
    );
    expect(delivered.filter((d) => d.data.applied)).toHaveLength(1);
    const events = await env.DB.prepare('SELECT COUNT(*) AS n FROM billing_events WHERE user_id = ?').bind(owner.id).first<{ n: number }>();
    expect(events?.n).toBe(1);
  });

  it('answers a replayed event id as a duplicate without applying it again', async () => {
    const owner = await signedInUser();
    const session = await api('POST', '/api/billing/checkout', { token: owner.token, json: { plan: 'pro', cycle: 'monthly' } });
    const signed = await api('POST', `/api/billing/sandbox/${session.data.id}/pay`, { token: owner.token });
    const send = () =>
      api('POST', '/api/billing/webhook', {
        body: signed.data.payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': signed.data.signature },
      });
    expect((await send()).data).toMatchObject({ applied: true });
    await env.DB.prepare("UPDATE users SET plan = 'free' WHERE id = ?").bind(owner.id).run();
    expect((await send()).data).toEqual({ received: true, applied: false, duplicate: true, ignored: false });
    expect((await billingOf(owner.token)).plan).toBe('free');
    const events = await env.DB.prepare('SELECT COUNT(*) AS n FROM billing_events WHERE user_id = ?').bind(owner.id).first<{ n: number }>();
    expect(events?.n).toBe(1);
  });

  it('the sandbox page is told how it charges, as the quote says: once for ten years for a memorial closeout, every month otherwise', async () => {
    const owner = await signedInUser();
    const closeout = await api('POST', '/api/billing/checkout', { token: owner.token, json: { plan: 'pro', cycle: 'memorial_closeout' } });
    expect((await api('GET', `/api/billing/sandbox/${closeout.data.id}`, { token: owner.token })).data).toMatchObject({
      cycle: 'memorial_closeout',
      amount_cents: 14900,
      interval: null,
      years: 10,
    });
    const monthly = await api('POST', '/api/billing/checkout', { token: owner.token, json: { plan: 'plus', cycle: 'monthly' } });
    expect((await api('GET', `/api/billing/sandbox/${monthly.data.id}`, { token: owner.token })).data).toMatchObject({ interval: 'month', years: null });
  });

  it('refuses a bad, an old or a missing signature with 400 and changes nothing', async () => {
    const owner = await signedInUser();
    const session = await api('POST', '/api/billing/checkout', { token: owner.token, json: { plan: 'plus', cycle: 'monthly' } });
    const signed = await api('POST', `/api/billing/sandbox/${session.data.id}/pay`, { token: owner.token });
    const payload = signed.data.payload as string;
    const post = (signature?: string) =>
      api('POST', '/api/billing/webhook', {
        body: payload,
        headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
      });
    const wrong = await post(stripeSignature(payload, 'whsec_not_ours'));
    expect(wrong.status).toBe(400);
    expect(wrong.data.detail).toMatch(/Invalid Stripe-Signature/);
    expect((await post(stripeSignature(payload, undefined, Math.floor(Date.now() / 1000) - 301))).status).toBe(400);
    expect((await post()).status).toBe(400);
    expect((await billingOf(owner.token)).plan).toBe('free');
  });

  it('waits for a delayed payment: an unpaid completion changes nothing, its later success changes the plan', async () => {
    const owner = await signedInUser();
    const session = await api('POST', '/api/billing/checkout', { token: owner.token, json: { plan: 'pro', cycle: 'lifetime' } });
    const object = { id: session.data.id, object: 'checkout.session', mode: 'payment', customer: 'cus_debit', subscription: null };
    const unpaid = await postEvent({
      id: `evt_${crypto.randomUUID()}`,
      type: 'checkout.session.completed',
      data: { object: { ...object, payment_status: 'unpaid' } },
    });
    expect(unpaid.data).toMatchObject({ applied: true });
    expect((await billingOf(owner.token)).plan).toBe('free');
    const paid = await postEvent({
      id: `evt_${crypto.randomUUID()}`,
      type: 'checkout.session.async_payment_succeeded',
      data: { object: { ...object, payment_status: 'paid' } },
    });
    expect(paid.data).toMatchObject({ applied: true });
    expect(await billingOf(owner.token)).toMatchObject({ plan: 'pro', cycle: 'lifetime', status: 'active', renews_at: null, ends_at: null });
  });

  it('acknowledges and ignores an event it does not handle', async () => {
    const res = await postEvent({ id: `evt_${crypto.randomUUID()}`, object: 'event', type: 'charge.refunded', data: { object: { id: 'ch_1' } } });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ received: true, applied: false, duplicate: false, ignored: true });
  });

  it('leaves the account on Free when the payment is declined or the checkout cancelled', async () => {
    const owner = await signedInUser();
    const declined = await checkoutThroughSandbox(owner.token, 'plus', 'annual', 'decline');
    expect(declined.delivered).toMatchObject({ applied: true });
    const cancelled = await checkoutThroughSandbox(owner.token, 'pro', 'lifetime', 'cancel');
    expect(cancelled.delivered).toMatchObject({ applied: true });
    expect(await billingOf(owner.token)).toMatchObject({ plan: 'free', purchased_plan: null, status: 'free' });
    const rows = await env.DB.prepare('SELECT id, status FROM checkout_sessions WHERE user_id = ? ORDER BY created_at').bind(owner.id).all();
    expect(rows.results.map((r) => r.status).sort()).toEqual(['canceled', 'declined']);
    // A finished session cannot be played again.
    expect((await api('POST', `/api/billing/sandbox/${declined.sessionId}/pay`, { token: owner.token })).status).toBe(409);
  });

  it('on a failed payment keeps everything, lowers new creation to Free and tells the owner; a recovered subscription restores the plan', async () => {
    const owner = await signedInUser();
    await checkoutThroughSandbox(owner.token, 'plus', 'monthly');
    for (const name of ['one', 'two', 'three']) expect((await api('POST', '/api/canary/create', { token: owner.token, json: { name } })).status).toBe(201);
    const { subscription_id } = (await env.DB.prepare('SELECT subscription_id FROM billing_accounts WHERE user_id = ?')
      .bind(owner.id)
      .first<{ subscription_id: string }>())!;
    expect(subscription_id).toMatch(/^sub_sandbox_/);

    // The notice's job is held here: once a channel takes it the notice lets go of its words (send-owner-notice.ts),
    // and outside the owner's quiet hours the consumer would take it before the read below.
    const { result: failed, jobs } = await captureQueues(() =>
      postEvent({
        id: `evt_${crypto.randomUUID()}`,
        type: 'invoice.payment_failed',
        data: { object: { id: 'in_1', object: 'invoice', parent: { subscription_details: { subscription: subscription_id } } } },
      }),
    );
    expect(jobs.some((j) => j.body.type === 'owner_notice')).toBe(true);
    expect(failed.data).toMatchObject({ applied: true });
    const billing = await billingOf(owner.token);
    expect(billing).toMatchObject({ plan: 'free', purchased_plan: 'plus', status: 'past_due' });
    expect(billing.meters.find((m: { key: string }) => m.key === 'canaries')).toMatchObject({ used: 3, limit: 1 });
    expect((await api('GET', '/api/canary/list', { token: owner.token })).data).toHaveLength(3);
    const refused = await api('POST', '/api/canary/create', { token: owner.token, json: { name: 'four' } });
    expect(refused.status).toBe(403);
    expect(refused.data.detail).toMatch(/Free plan allows 1 canary/);
    const notice = await env.DB.prepare("SELECT subject, text FROM owner_notices WHERE user_id = ? AND kind = 'billing_payment_failed'")
      .bind(owner.id)
      .all<{ text: string }>();
    expect(notice.results).toHaveLength(1);
    expect(notice.results[0]!.text).toMatch(/Nothing is deleted/);

    const recovered = await postEvent({
      id: `evt_${crypto.randomUUID()}`,
      type: 'customer.subscription.updated',
      data: { object: { id: subscription_id, object: 'subscription', status: 'active', items: { data: [{ current_period_end: 4_102_444_800 }] } } },
    });
    expect(recovered.data).toMatchObject({ applied: true });
    expect(await billingOf(owner.token)).toMatchObject({ plan: 'plus', status: 'active', renews_at: '2100-01-01T00:00:00.000Z' });
  });

  it('ends the plan when the subscription is deleted, and keeps what was made beyond Free', async () => {
    const owner = await signedInUser();
    await checkoutThroughSandbox(owner.token, 'pro', 'annual');
    for (const name of ['a', 'b', 'c', 'd']) expect((await api('POST', '/api/canary/create', { token: owner.token, json: { name } })).status).toBe(201);
    const { subscription_id } = (await env.DB.prepare('SELECT subscription_id FROM billing_accounts WHERE user_id = ?')
      .bind(owner.id)
      .first<{ subscription_id: string }>())!;
    const other = await postEvent({
      id: `evt_${crypto.randomUUID()}`,
      type: 'customer.subscription.deleted',
      data: { object: { id: 'sub_someone_else', status: 'canceled' } },
    });
    expect(other.data).toMatchObject({ ignored: true });
    const ended = await postEvent({
      id: `evt_${crypto.randomUUID()}`,
      type: 'customer.subscription.deleted',
      data: { object: { id: subscription_id, status: 'canceled' } },
    });
    expect(ended.data).toMatchObject({ applied: true });
    expect(await billingOf(owner.token)).toMatchObject({ plan: 'free', status: 'canceled', renews_at: null });
    expect((await api('GET', '/api/canary/list', { token: owner.token })).data).toHaveLength(4);
    const told = await env.DB.prepare("SELECT COUNT(*) AS n FROM owner_notices WHERE user_id = ? AND kind = 'billing_subscription_ended'")
      .bind(owner.id)
      .first<{ n: number }>();
    expect(told?.n).toBe(1);
  });

  it('never lets a person change their plan without a provider event: the sandbox answers only their own sessions', async () => {
    const [owner, outsider] = await Promise.all([signedInUser(), signedInUser()]);
    const session = await api('POST', '/api/billing/checkout', { token: owner.token, json: { plan: 'plus', cycle: 'annual' } });
    expect((await api('POST', `/api/billing/sandbox/${session.data.id}/pay`, { token: outsider.token })).status).toBe(404);
    expect((await api('GET', `/api/billing/sandbox/${session.data.id}`, { token: outsider.token })).status).toBe(404);
    expect((await billingOf(owner.token)).plan).toBe('free');
  });
});
