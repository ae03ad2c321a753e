import {
  annualSavingPercent as savingFrom,
  BILLING_CYCLES,
  type BillingCycle,
  PLAN_LIMITS,
  type PlanId,
  planPrices,
  type PlanPrices,
} from '@afterword/worker/contracts/plans';
import { MAX_GUARDIANS } from '@afterword/worker/contracts/guardian';

/**
 * docs/product.md "Plans and billing": the tier cards of the pricing and checkout pages. Prices and limits come
 * from the one plan table (worker/src/contracts/plans.ts); `VITE_PRICING_OVERRIDES` (JSON, e.g.
 * {"plus":{"monthly":5.99}}) replaces prices at build time — set the Worker's `PRICING_OVERRIDES` to the same
 * JSON so checkout charges what the page shows (docs/decisions/billing.md).
 */
export { BILLING_CYCLES, FAMILY_CONTINUATION_DISCOUNT_PERCENT, type BillingCycle } from '@afterword/worker/contracts/plans';
export const DEFAULT_CYCLE: BillingCycle = 'annual';
export const CYCLE_LABELS: Record<BillingCycle, string> = {
  monthly: 'Monthly',
  annual: 'Annual',
  lifetime: 'Lifetime',
  memorial_closeout: 'Memorial closeout',
};

export type TierId = PlanId;

export interface Tier {
  id: TierId;
  name: string;
  tagline: string;
  recommended: boolean;
  pricing: PlanPrices;
  limits: { canaries: number | 'unlimited'; storageGb: number; voiceMinutesPerSession: number; apiCalls: number };
  features: string[];
}

/**
 * What every plan has, the same on each: the server enforces no plan limit on these
 * (worker/src/contracts/plans.ts PLAN_LIMITS limits canaries, storage, voice minutes and API calls only).
 */
export const EVERY_PLAN = [`Up to ${MAX_GUARDIANS} guardians`, 'End-to-end encrypted messages and vault'] as const;

const BASE_TIERS: Omit<Tier, 'pricing' | 'limits' | 'features'>[] = [
  { id: 'free', name: 'Free', tagline: 'Start with one check-in.', recommended: false },
  { id: 'plus', name: 'Plus (Guardian)', tagline: 'For people with a few people to look after.', recommended: false },
  { id: 'pro', name: 'Pro (Legacy)', tagline: 'The full legacy toolkit.', recommended: true },
  { id: 'immortality', name: 'Immortality', tagline: 'For large archives and families.', recommended: false },
];

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * A tier's feature lines, written from the one plan table the server enforces (PLAN_LIMITS), so the page
 * can never promise what the server does not hold to (web/src/lib/pricing.test.ts reads them back).
 */
export function featuresOf(id: PlanId): string[] {
  const l = PLAN_LIMITS[id];
  return [
    Number.isFinite(l.canaries) ? count(l.canaries, 'canary', 'canaries') : 'Unlimited canaries',
    `${(l.storageBytes / 1e9).toLocaleString('en-US')} GB storage`,
    l.voiceMinutes ? `${count(l.voiceMinutes, 'voice minute', 'voice minutes')} per session` : 'No voice chat',
    `${count(l.apiCallsPerMonth, 'API call', 'API calls')} a month`,
    ...EVERY_PLAN,
  ];
}

export const PRICES = planPrices(import.meta.env.VITE_PRICING_OVERRIDES);
const limitsOf = (id: PlanId): Tier['limits'] => {
  const l = PLAN_LIMITS[id];
  return {
    canaries: Number.isFinite(l.canaries) ? l.canaries : 'unlimited',
    storageGb: l.storageBytes / 1e9,
    voiceMinutesPerSession: l.voiceMinutes,
    apiCalls: l.apiCallsPerMonth,
  };
};
export const TIERS: readonly Tier[] = BASE_TIERS.map((t) => ({ ...t, pricing: PRICES[t.id], limits: limitsOf(t.id), features: featuresOf(t.id) }));

/** docs/product.md "Plans and billing": the annual saving badge comes from the Plus monthly and annual prices. */
export const annualSavingPercent = () => savingFrom(PRICES);

export function formatUsd(amount: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: Number.isInteger(amount) ? 0 : 2 }).format(amount);
}

/** The price shown on a tier card for a cycle, e.g. '$49 / year' or 'Not offered'. */
export function describePrice(tier: Tier, cycle: BillingCycle): string {
  const { pricing } = tier;
  if (cycle === 'memorial_closeout') return pricing.closeout ? `${formatUsd(pricing.closeout.price)} for ${pricing.closeout.years} years` : 'Not offered';
  if (tier.id === 'free') return 'Free';
  if (cycle === 'monthly') return `${formatUsd(pricing.monthly)} / month`;
  if (cycle === 'annual') return `${formatUsd(pricing.annual)} / year`;
  return `${formatUsd(pricing.lifetime)} once`;
}

export const isBillingCycle = (v: unknown): v is BillingCycle => BILLING_CYCLES.includes(v as BillingCycle);
export const findTier = (id: unknown) => TIERS.find((t) => t.id === id);
