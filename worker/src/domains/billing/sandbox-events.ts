import type { User } from '@afterword/db/schema';
import { type BillingCycle, chargeTerms, isSubscriptionCycle, PLAN_LIMITS, type PaidPlanId, planPrices } from '../../contracts/plans';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { webhookSecret } from './providers';
import { signStripePayload } from './stripe-signature';

export const sessionNotFound = () => new AppError('NOT_FOUND', 'No such checkout session');

interface SessionRow {
  id: string;
  plan: PaidPlanId;
  cycle: BillingCycle;
  amount_cents: number;
  discount_percent: number;
  status: 'open' | 'complete' | 'declined' | 'canceled';
}

async function ownSandboxSession(ctx: ServiceContext, user: Pick<User, 'id'>, id: string): Promise<SessionRow> {
  const row = await ctx.env.DB.prepare(
    "SELECT id, plan, cycle, amount_cents, discount_percent, status FROM checkout_sessions WHERE id = ?1 AND user_id = ?2 AND provider = 'sandbox'",
  )
    .bind(id, user.id)
    .first<SessionRow>();
  if (!row) throw sessionNotFound();
  return row;
}

/** GET /api/billing/sandbox/{id}: the sandbox checkout page's session (the caller's own only). */
export async function readSandboxSession(ctx: ServiceContext, user: Pick<User, 'id'>, id: string) {
  const row = await ownSandboxSession(ctx, user, id);
  return {
    id: row.id,
    plan: row.plan,
    plan_name: PLAN_LIMITS[row.plan].name,
    cycle: row.cycle,
    amount_cents: row.amount_cents,
    discount_percent: row.discount_percent,
    ...chargeTerms(planPrices(ctx.env.PRICING_OVERRIDES)[row.plan], row.cycle),
    status: row.status,
  };
}

/**
 * POST /api/billing/sandbox/{id}: the sandbox plays Stripe's hosted page — the person pays, their card is
 * declined, or they cancel — and answers the event Stripe would send, in Stripe's shape and signed with
 * the webhook secret. The page posts it to POST /api/billing/webhook, the path Stripe uses: the plan
 * changes only there. Pay → checkout.session.completed (paid); decline →
 * checkout.session.async_payment_failed; cancel → checkout.session.expired.
 */
export async function playSandboxOutcome(ctx: ServiceContext, user: Pick<User, 'id'>, id: string, outcome: 'pay' | 'decline' | 'cancel') {
  const row = await ownSandboxSession(ctx, user, id);
  if (row.status !== 'open') throw new AppError('CONFLICT', 'This checkout session is already finished');
  const subscription = isSubscriptionCycle(row.cycle);
  const type = outcome === 'pay' ? 'checkout.session.completed' : outcome === 'decline' ? 'checkout.session.async_payment_failed' : 'checkout.session.expired';
  const created = Math.floor(ctx.now().getTime() / 1000);
  // One event per session and outcome, as Stripe completes a session once: parallel "Pay" clicks answer
  // the same event, which the webhook applies once (its id is recorded).
  const tag = `${row.id.replace(/[^A-Za-z0-9]/g, '')}_${outcome}`;
  const event = {
    id: `evt_sandbox_${tag}`,
    object: 'event',
    type,
    created,
    livemode: false,
    data: {
      object: {
        id: row.id,
        object: 'checkout.session',
        mode: subscription ? 'subscription' : 'payment',
        client_reference_id: user.id,
        customer: `cus_sandbox_${user.id.replaceAll('-', '')}`,
        subscription: outcome === 'pay' && subscription ? `sub_sandbox_${row.id.replace(/[^A-Za-z0-9]/g, '')}` : null,
        amount_total: row.amount_cents,
        currency: 'usd',
        payment_status: outcome === 'pay' ? 'paid' : 'unpaid',
        status: outcome === 'cancel' ? 'expired' : outcome === 'pay' ? 'complete' : 'open',
        metadata: { user_id: user.id, plan: row.plan, cycle: row.cycle },
      },
    },
  };
  return signSandboxEvent(ctx, event);
}

/**
 * A sandbox event as Stripe sends it: the JSON payload and its Stripe-Signature, signed with the webhook secret
 * (the local one wherever the sandbox runs). The sandbox checkout and portal pages post it to the webhook.
 */
export async function signSandboxEvent(ctx: ServiceContext, event: { created: number }) {
  const secret = webhookSecret(ctx.env);
  if (!secret) throw sessionNotFound();
  const payload = JSON.stringify(event);
  return { payload, signature: await signStripePayload(secret, payload, event.created) };
}
