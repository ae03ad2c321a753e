import { PLAN_LIMITS } from '@afterword/worker/contracts/plans';
import { MAX_GUARDIANS } from '@afterword/worker/contracts/guardian';
import { describe, expect, it } from 'vitest';
import { EVERY_PLAN, TIERS } from './pricing';

/** Every line of the pricing page's tiers is what the server enforces (worker/src/contracts/plans.ts). */
describe('the pricing page promises what the server holds to', () => {
  it.each(TIERS.map((t) => [t.id, t] as const))('%s', (id, tier) => {
    const l = PLAN_LIMITS[id];
    const [canaries, storage, voice, api, ...shared] = tier.features;
    expect(canaries).toBe(Number.isFinite(l.canaries) ? `${l.canaries} ${l.canaries === 1 ? 'canary' : 'canaries'}` : 'Unlimited canaries');
    expect(storage).toBe(`${(l.storageBytes / 1e9).toLocaleString('en-US')} GB storage`);
    expect(voice).toBe(l.voiceMinutes ? `${l.voiceMinutes} voice minute${l.voiceMinutes === 1 ? '' : 's'} per session` : 'No voice chat');
    expect(api).toBe(`${l.apiCallsPerMonth.toLocaleString('en-US')} API calls a month`);
    expect(shared).toEqual([...EVERY_PLAN]);
  });

  it('guardians are on every plan, Free included (the server limits them to MAX_GUARDIANS on all)', () => {
    for (const t of TIERS) expect(t.features).toContain(`Up to ${MAX_GUARDIANS} guardians`);
    expect(TIERS.flatMap((t) => t.features)).not.toContain('Guardian assignment');
  });
});
