import { FAMILY_CONTINUATION_DISCOUNT_PERCENT } from '../../../contracts/plans';
import { AppError } from '../../../lib/errors';
import { log } from '../../../lib/logger';
import type { BillingProvider, CheckoutRequest } from './types';

/**
 * Stripe Checkout Sessions over Stripe's REST API (docs.stripe.com/api/checkout/sessions/create):
 * form-encoded bodies with bracketed keys, `Authorization: Bearer <secret key>`. Monthly and annual are
 * `mode=subscription` with a recurring price; lifetime and memorial closeout are `mode=payment`. The
 * price is sent inline (`price_data`) from our one plan table, so no Price objects have to be kept in
 * step with it. The family continuation discount is a coupon (`discounts[0][coupon]`): percent_off 40,
 * duration forever, created once under a fixed id (or named by STRIPE_FAMILY_COUPON).
 */
export interface StripeEnv {
  STRIPE_SECRET_KEY?: string;
  /** The endpoint's signing secret (`whsec_…`) that signs webhook events. */
  STRIPE_WEBHOOK_SECRET?: string;
  /** Tests point it at a local peer; default https://api.stripe.com. */
  STRIPE_API_BASE?: string;
  /** An existing coupon for the family continuation discount; default: one made on first use. */
  STRIPE_FAMILY_COUPON?: string;
}

export const FAMILY_COUPON_ID = 'afterword-family-continuation-40';

type Form = Record<string, string | number | undefined>;

const encode = (form: Form) =>
  Object.entries(form)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

interface StripeError {
  error?: { code?: string; message?: string; type?: string };
}

export function stripeProvider(env: StripeEnv): BillingProvider {
  const key = env.STRIPE_SECRET_KEY;
  const base = (env.STRIPE_API_BASE ?? 'https://api.stripe.com').replace(/\/+$/, '');
  if (!key) throw new AppError('NOT_IMPLEMENTED', 'Payments are not configured on this server (STRIPE_SECRET_KEY is unset).');

  async function post<T>(path: string, form: Form, idempotencyKey?: string): Promise<{ status: number; body: T & StripeError }> {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/x-www-form-urlencoded',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: encode(form),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as T & StripeError };
  }

  async function familyCoupon(): Promise<string> {
    if (env.STRIPE_FAMILY_COUPON) return env.STRIPE_FAMILY_COUPON;
    const made = await post('/v1/coupons', {
      id: FAMILY_COUPON_ID,
      percent_off: FAMILY_CONTINUATION_DISCOUNT_PERCENT,
      duration: 'forever',
      name: 'Family continuation',
    });
    if (made.status < 300 || made.body.error?.code === 'resource_already_exists') return FAMILY_COUPON_ID;
    throw unavailable(made.status, made.body);
  }

  return {
    name: 'stripe',
    async createCheckout(req: CheckoutRequest) {
      const subscription = req.interval !== null;
      const metadata = { user_id: req.userId, plan: req.plan, cycle: req.cycle };
      const form: Form = {
        mode: subscription ? 'subscription' : 'payment',
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
        client_reference_id: req.userId,
        customer_email: req.email,
        'line_items[0][quantity]': 1,
        'line_items[0][price_data][currency]': 'usd',
        'line_items[0][price_data][unit_amount]': req.listCents,
        'line_items[0][price_data][product_data][name]': `Afterword ${req.planName}`,
        'line_items[0][price_data][recurring][interval]': req.interval ?? undefined,
        ...Object.fromEntries(Object.entries(metadata).map(([k, v]) => [`metadata[${k}]`, v])),
        // The subscription's own events (updated, deleted) carry the account too.
        ...(subscription ? Object.fromEntries(Object.entries(metadata).map(([k, v]) => [`subscription_data[metadata][${k}]`, v])) : {}),
        'discounts[0][coupon]': req.discountPercent > 0 ? await familyCoupon() : undefined,
      };
      const res = await post<{ id?: string; url?: string }>('/v1/checkout/sessions', form);
      if (res.status >= 300 || !res.body.id || !res.body.url) throw unavailable(res.status, res.body);
      return { id: res.body.id, url: res.body.url };
    },
    // POST /v1/billing_portal/sessions (docs.stripe.com/api/customer_portal/sessions/create): a short-lived URL of
    // Stripe's customer portal, configured in the Stripe dashboard to cancel at the period's end, switch between the
    // monthly and annual prices and update the card; each change comes back as customer.subscription.updated.
    async createPortal({ customerId, returnUrl }) {
      const res = await post<{ url?: string }>('/v1/billing_portal/sessions', { customer: customerId, return_url: returnUrl });
      if (res.status >= 300 || !res.body.url)
        throw unavailable(res.status, res.body, 'The payment provider could not open its billing page. Nothing was changed; please try again.');
      return { url: res.body.url };
    },
    // DELETE /v1/subscriptions/{id}: cancels at once; an already-canceled one answers 404 resource_missing.
    async cancelSubscription(subscriptionId: string) {
      const res = await fetch(`${base}/v1/subscriptions/${encodeURIComponent(subscriptionId)}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${key}` },
      });
      const body = (await res.json().catch(() => ({}))) as StripeError;
      if (res.status >= 300 && body.error?.code !== 'resource_missing') throw unavailable(res.status, body);
    },
  };
}

function unavailable(status: number, body: StripeError, detail = 'The payment provider could not start a checkout. Nothing was charged; please try again.') {
  log.error('stripe refused', { status, code: body.error?.code, message: body.error?.message });
  return new AppError('INTERNAL', detail);
}
