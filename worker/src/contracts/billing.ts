import { z } from 'zod';
import { BILLING_CYCLES, PAID_PLAN_IDS, PLAN_IDS } from './plans';

/**
 * Billing (docs/decisions/billing.md): the plan, its cycle and standing, every meter, and the
 * checkout that changes it. Plans change only from verified provider events (POST /api/billing/webhook).
 */

/** One meter against its plan limit; `limit` null = unlimited, `used` null = a per-use limit (voice minutes per session). */
export const ZMeter = z.object({
  key: z.enum(['canaries', 'storage_bytes', 'api_calls', 'voice_minutes_per_session']),
  label: z.string(),
  used: z.number().nullable(),
  limit: z.number().nullable(),
  /** When the meter starts again (API calls: the next UTC month), ISO. */
  resets_at: z.string().nullable(),
});
export type Meter = z.infer<typeof ZMeter>;

export const ZBillingView = z.object({
  /** The plan whose limits apply now (Free while a payment has failed). */
  plan: z.enum(PLAN_IDS),
  plan_name: z.string(),
  /** What was bought, when something was. */
  purchased_plan: z.enum(PLAN_IDS).nullable(),
  cycle: z.enum(BILLING_CYCLES).nullable(),
  status: z.enum(['free', 'active', 'past_due', 'canceled']),
  /** A subscription's next renewal (ISO); null otherwise. */
  renews_at: z.string().nullable(),
  /** When a memorial closeout (or a canceled subscription) ends (ISO); null otherwise. */
  ends_at: z.string().nullable(),
  provider: z.enum(['stripe', 'sandbox']),
  /** Cancelled by its owner: it runs until `renews_at` and then ends (nothing is deleted). */
  cancel_at_period_end: z.boolean(),
  /** A subscription the owner can cancel, resume, move to another cycle or pay with another card (POST /api/billing/portal). */
  can_manage: z.boolean(),
  meters: z.array(ZMeter),
});
export type BillingView = z.infer<typeof ZBillingView>;

export const ZCheckoutQuery = z.object({
  plan: z.enum(PAID_PLAN_IDS, { message: 'plan must be plus, pro or immortality' }),
  cycle: z.enum(BILLING_CYCLES, { message: 'cycle must be monthly, annual, lifetime or memorial_closeout' }),
});
export type CheckoutQuery = z.infer<typeof ZCheckoutQuery>;
/**
 * The quote's query: the pricing page's defaults (Plus, annual — docs/product.md "Plans and billing") when a
 * part is left out.
 */
export const ZQuoteQuery = z.object({ plan: ZCheckoutQuery.shape.plan.default('plus'), cycle: ZCheckoutQuery.shape.cycle.default('annual') });

/** What a checkout will charge and change, shown before the person pays. */
export const ZCheckoutQuote = z.object({
  plan: z.enum(PAID_PLAN_IDS),
  plan_name: z.string(),
  cycle: z.enum(BILLING_CYCLES),
  /** The list price in cents and what is charged after a discount. */
  list_cents: z.number().int(),
  amount_cents: z.number().int(),
  discount_percent: z.number().int(),
  /** Whether it renews: `month`, `year`, or null for one payment. */
  interval: z.enum(['month', 'year']).nullable(),
  /** For memorial closeout: the years it covers. */
  years: z.number().int().nullable(),
  /** Sentences: what changes on the account (limits from → to). */
  changes: z.array(z.string()),
  current_plan: z.enum(PLAN_IDS),
});
export type CheckoutQuote = z.infer<typeof ZCheckoutQuote>;

export const ZCheckoutSession = z.object({
  id: z.string(),
  /** Where to send the browser: the provider's page (Stripe) or the sandbox page. */
  url: z.string(),
});

/** A checkout session id as providers write them (`cs_…`). */
export const ZSandboxSessionParams = z.object({ id: z.string().regex(/^cs_[A-Za-z0-9_]{1,200}$/) });
export const ZSandboxOutcomeParams = ZSandboxSessionParams.extend({ outcome: z.enum(['pay', 'decline', 'cancel']) });

/** The sandbox session as its page shows it. */
export const ZSandboxSession = ZCheckoutQuote.pick({
  plan: true,
  plan_name: true,
  cycle: true,
  amount_cents: true,
  discount_percent: true,
  interval: true,
  years: true,
}).extend({
  id: z.string(),
  status: z.enum(['open', 'complete', 'declined', 'canceled']),
});

/** A signed provider event for the browser to post to /api/billing/webhook, as a provider would. */
export const ZSignedEvent = z.object({ payload: z.string(), signature: z.string() });

/** POST /api/billing/portal: where the owner manages their subscription (Stripe's customer portal, or the local sandbox's). */
export const ZPortalSession = z.object({ url: z.string() });

/** What the sandbox portal can do, as Stripe's portal does: cancel at the period's end, take that back, change cycle, change the card. */
export const SANDBOX_PORTAL_ACTIONS = ['cancel', 'resume', 'switch_cycle', 'update_card'] as const;
export const ZSandboxPortalParams = z.object({
  action: z.enum(SANDBOX_PORTAL_ACTIONS, { message: 'action must be cancel, resume, switch_cycle or update_card' }),
});
