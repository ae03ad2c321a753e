/**
 * SPEC section 9: the one source of tier prices and limits for the pricing and checkout pages.
 * Prices are USD; `VITE_PRICING_OVERRIDES` (JSON, e.g. {"plus":{"monthly":5.99}}) may replace them at build time.
 */
export const BILLING_CYCLES = ['monthly', 'annual', 'lifetime', 'memorial_closeout'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];
export const DEFAULT_CYCLE: BillingCycle = 'annual';
export const CYCLE_LABELS: Record<BillingCycle, string> = {
  monthly: 'Monthly',
  annual: 'Annual',
  lifetime: 'Lifetime',
  memorial_closeout: 'Memorial closeout',
};

export type TierId = 'free' | 'plus' | 'pro' | 'immortality';

export interface Tier {
  id: TierId;
  name: string;
  tagline: string;
  recommended: boolean;
  pricing: { monthly: number; annual: number; lifetime: number; closeout: { price: number; years: number } | null };
  limits: { canaries: number | 'unlimited'; storageGb: number; voiceMinutesPerSession: number; apiCalls: number };
  features: string[];
}

const BASE_TIERS: Tier[] = [
  {
    id: 'free',
    name: 'Free',
    tagline: 'Start with one check-in.',
    recommended: false,
    pricing: { monthly: 0, annual: 0, lifetime: 0, closeout: null },
    limits: { canaries: 1, storageGb: 1, voiceMinutesPerSession: 0, apiCalls: 100 },
    features: ['1 canary', 'Encrypted messages', '1 GB storage'],
  },
  {
    id: 'plus',
    name: 'Plus (Guardian)',
    tagline: 'For people with a few people to look after.',
    recommended: false,
    pricing: { monthly: 4.99, annual: 49, lifetime: 149, closeout: { price: 99, years: 5 } },
    limits: { canaries: 3, storageGb: 10, voiceMinutesPerSession: 5, apiCalls: 1000 },
    features: ['3 canaries', 'Guardian assignment', '10 GB storage', '5 voice minutes per session'],
  },
  {
    id: 'pro',
    name: 'Pro (Legacy)',
    tagline: 'The full legacy toolkit.',
    recommended: true,
    pricing: { monthly: 14.99, annual: 149, lifetime: 349, closeout: { price: 149, years: 10 } },
    limits: { canaries: 'unlimited', storageGb: 100, voiceMinutesPerSession: 20, apiCalls: 10000 },
    features: ['Unlimited canaries', 'Voice legacy', '100 GB storage', '20 voice minutes per session'],
  },
  {
    id: 'immortality',
    name: 'Immortality',
    tagline: 'For large archives and families.',
    recommended: false,
    pricing: { monthly: 49.99, annual: 499, lifetime: 999, closeout: { price: 299, years: 20 } },
    limits: { canaries: 'unlimited', storageGb: 1000, voiceMinutesPerSession: 60, apiCalls: 100000 },
    features: ['Unlimited canaries', '1000 GB storage', '60 voice minutes per session', '100,000 API calls'],
  },
];

type PriceOverrides = Partial<Record<TierId, Partial<Pick<Tier['pricing'], 'monthly' | 'annual' | 'lifetime'>>>>;

export function applyPriceOverrides(tiers: Tier[], json: string | undefined): Tier[] {
  if (!json) return tiers;
  try {
    const overrides = JSON.parse(json) as PriceOverrides;
    return tiers.map((t) => ({ ...t, pricing: { ...t.pricing, ...overrides[t.id] } }));
  } catch {
    return tiers; // A malformed build setting must never break the page; the SPEC prices stand.
  }
}

export const TIERS: readonly Tier[] = applyPriceOverrides(BASE_TIERS, import.meta.env.VITE_PRICING_OVERRIDES);

export const FAMILY_CONTINUATION_DISCOUNT_PERCENT = 40;

/** SPEC section 9: the annual saving badge comes from the Plus monthly and annual prices. */
export function annualSavingPercent(tiers: readonly Tier[] = TIERS): number {
  const plus = tiers.find((t) => t.id === 'plus');
  if (!plus || plus.pricing.monthly <= 0) return 0;
  return Math.round((1 - plus.pricing.annual / (plus.pricing.monthly * 12)) * 100);
}

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
