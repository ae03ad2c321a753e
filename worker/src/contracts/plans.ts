import { z } from 'zod';

/**
 * docs/product.md "Plans and billing": the one plan table — prices (USD) and the limits the server enforces.
 * The web app's pricing and checkout pages and the Worker's checkout read the same table, each through
 * `planTable(overrides)`: the build-time setting `PRICING_OVERRIDES` (the Worker's var in wrangler.toml)
 * and `VITE_PRICING_OVERRIDES` (the web build) carry the same JSON, e.g. {"plus":{"monthly":5.99}}, and
 * must be set together (docs/decisions/billing.md). Limits are not overridable: they are the product.
 */
export const PLAN_IDS = ['free', 'plus', 'pro', 'immortality'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export const PAID_PLAN_IDS = ['plus', 'pro', 'immortality'] as const;
export type PaidPlanId = (typeof PAID_PLAN_IDS)[number];

export const BILLING_CYCLES = ['monthly', 'annual', 'lifetime', 'memorial_closeout'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];
export const ZBillingCycle = z.enum(BILLING_CYCLES);
export const ZPlanId = z.enum(PLAN_IDS);

export interface PlanLimits {
  name: string;
  canaries: number;
  storageBytes: number;
  voiceMinutes: number;
  apiCallsPerMonth: number;
}

/** The limits table (docs/product.md "Plans and billing"). `Infinity` is "unlimited". */
export const PLAN_LIMITS: Record<PlanId, PlanLimits> = {
  free: { name: 'Free', canaries: 1, storageBytes: 1e9, voiceMinutes: 0, apiCallsPerMonth: 100 },
  plus: { name: 'Plus', canaries: 3, storageBytes: 10e9, voiceMinutes: 5, apiCallsPerMonth: 1000 },
  pro: { name: 'Pro', canaries: Infinity, storageBytes: 100e9, voiceMinutes: 20, apiCallsPerMonth: 10000 },
  immortality: { name: 'Immortality', canaries: Infinity, storageBytes: 1000e9, voiceMinutes: 60, apiCallsPerMonth: 100000 },
};

export interface PlanPrices {
  monthly: number;
  annual: number;
  lifetime: number;
  /** Memorial closeout: one payment that keeps the account for `years`; none on Free. */
  closeout: { price: number; years: number } | null;
}

/** The price table (docs/product.md "Plans and billing"), before build-time overrides. */
export const BASE_PLAN_PRICES: Record<PlanId, PlanPrices> = {
  free: { monthly: 0, annual: 0, lifetime: 0, closeout: null },
  plus: { monthly: 4.99, annual: 49, lifetime: 149, closeout: { price: 99, years: 5 } },
  pro: { monthly: 14.99, annual: 149, lifetime: 349, closeout: { price: 149, years: 10 } },
  immortality: { monthly: 49.99, annual: 499, lifetime: 999, closeout: { price: 299, years: 20 } },
};

/**
 * docs/product.md "Plans and billing": family continuation discount, in percent (conditions:
 * docs/decisions/billing.md).
 */
export const FAMILY_CONTINUATION_DISCOUNT_PERCENT = 40;

type PriceOverrides = Partial<Record<PlanId, Partial<Pick<PlanPrices, 'monthly' | 'annual' | 'lifetime'>> & { closeout?: number }>>;

/**
 * The prices with a build-time override applied. A malformed or negative setting never breaks a page
 * or a checkout: the table's prices stand for what it cannot say.
 */
export function planPrices(overridesJson: string | undefined): Record<PlanId, PlanPrices> {
  if (!overridesJson) return BASE_PLAN_PRICES;
  let overrides: PriceOverrides;
  try {
    overrides = JSON.parse(overridesJson) as PriceOverrides;
  } catch {
    return BASE_PLAN_PRICES;
  }
  const ok = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  const out = {} as Record<PlanId, PlanPrices>;
  for (const id of PLAN_IDS) {
    const base = BASE_PLAN_PRICES[id];
    const o = (overrides && typeof overrides === 'object' ? overrides[id] : undefined) ?? {};
    out[id] = {
      monthly: ok(o.monthly) ? o.monthly : base.monthly,
      annual: ok(o.annual) ? o.annual : base.annual,
      lifetime: ok(o.lifetime) ? o.lifetime : base.lifetime,
      closeout: base.closeout && ok(o.closeout) ? { ...base.closeout, price: o.closeout } : base.closeout,
    };
  }
  return out;
}

/** What one checkout of `plan` for `cycle` costs, in USD; null when the cycle is not offered. */
export function cyclePrice(prices: PlanPrices, cycle: BillingCycle): number | null {
  if (cycle === 'memorial_closeout') return prices.closeout?.price ?? null;
  return prices[cycle];
}

/** Monthly and annual checkouts are subscriptions that renew; lifetime and memorial closeout are paid once. */
export const isSubscriptionCycle = (cycle: BillingCycle): cycle is 'monthly' | 'annual' => cycle === 'monthly' || cycle === 'annual';

/** How a checkout of `cycle` is charged, as the quote and the sandbox page say it: every month or year, or once for `years` (memorial closeout). */
export function chargeTerms(prices: PlanPrices, cycle: BillingCycle): { interval: 'month' | 'year' | null; years: number | null } {
  return {
    interval: cycle === 'monthly' ? 'month' : cycle === 'annual' ? 'year' : null,
    years: cycle === 'memorial_closeout' ? (prices.closeout?.years ?? null) : null,
  };
}

/** The price in cents after the family continuation discount (rounded to the cent, as Stripe's coupons do). */
export const discountedCents = (usd: number, percentOff: number) => Math.round(Math.round(usd * 100) * (1 - percentOff / 100));

/** docs/product.md "Plans and billing": the annual saving badge comes from the Plus monthly and annual prices. */
export function annualSavingPercent(prices: Record<PlanId, PlanPrices>): number {
  const plus = prices.plus;
  if (plus.monthly <= 0) return 0;
  return Math.round((1 - plus.annual / (plus.monthly * 12)) * 100);
}

/** The upgrade sentence of a limit refusal: the next plan that lifts it, by name. */
export function upgradeHint(plan: PlanId, lifts: (limits: PlanLimits) => boolean): string {
  const next = PLAN_IDS.slice(PLAN_IDS.indexOf(plan) + 1).find((id) => lifts(PLAN_LIMITS[id]));
  return next ? `Upgrade to ${PLAN_LIMITS[next].name} at /pricing.` : 'This is the largest plan.';
}
