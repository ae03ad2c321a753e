import { describe, expect, it } from 'vitest';
import { annualSavingPercent, BASE_PLAN_PRICES, cyclePrice, discountedCents, planPrices, upgradeHint } from '../src/contracts/plans';

describe('the one plan table', () => {
  it('holds the plan table prices, and a build-time override replaces only what it names', () => {
    expect(planPrices(undefined)).toBe(BASE_PLAN_PRICES);
    const over = planPrices('{"plus":{"monthly":5.99,"closeout":109},"pro":{"annual":139}}');
    expect(over.plus).toEqual({ monthly: 5.99, annual: 49, lifetime: 149, closeout: { price: 109, years: 5 } });
    expect(over.pro.annual).toBe(139);
    expect(over.immortality).toEqual(BASE_PLAN_PRICES.immortality);
  });

  it('ignores a malformed or negative override instead of breaking checkout', () => {
    expect(planPrices('{not json')).toBe(BASE_PLAN_PRICES);
    expect(planPrices('{"plus":{"monthly":-1,"annual":"cheap"}}').plus).toEqual(BASE_PLAN_PRICES.plus);
    expect(planPrices('{"free":{"closeout":10}}').free.closeout).toBeNull();
  });

  it('computes the annual saving badge from the Plus prices, and the family discount to the cent', () => {
    expect(annualSavingPercent(BASE_PLAN_PRICES)).toBe(18); // 49 against 12 × 4.99
    expect(annualSavingPercent(planPrices('{"plus":{"annual":29.94}}'))).toBe(50);
    expect(cyclePrice(BASE_PLAN_PRICES.pro, 'memorial_closeout')).toBe(149);
    expect(cyclePrice(BASE_PLAN_PRICES.free, 'memorial_closeout')).toBeNull();
    expect(discountedCents(4.99, 40)).toBe(299);
    expect(discountedCents(49, 40)).toBe(2940);
  });

  it('names the next plan that lifts a limit', () => {
    expect(upgradeHint('free', (l) => l.canaries > 1)).toBe('Upgrade to Plus at /pricing.');
    expect(upgradeHint('free', (l) => l.canaries > 3)).toBe('Upgrade to Pro at /pricing.');
    expect(upgradeHint('immortality', () => true)).toBe('This is the largest plan.');
  });
});
