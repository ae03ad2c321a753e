import { countsAfterWarning, missesToEmit, nextAttention, planWake, warningsToSend, type CanaryFacts, type TransitionRow } from '../canary/plan-wake';

/** What a canary's own engine would do from `from` with no check-in, each warning reaching the owner as it is sent. */
export interface CanaryForecast {
  warnings: { at: number; kind: 'grace_reminder' | 'late_rewarn' }[];
  misses: { at: number; misses: number; deadline: number }[];
}

/** A bound so a bug cannot spin: enough wakes for 50 misses and their warnings. */
const MAX_WAKES = 200;

/**
 * Runs the canary engine's own rules (plan-wake.ts: planWake, warningsToSend, countsAfterWarning, missesToEmit,
 * nextAttention) on a copy of the canary's clock in memory, wake after wake, from `from` until `upToMisses`
 * misses were emitted — the wakes its Durable Object would have, with nothing written anywhere. Each warning
 * is taken to reach the owner the moment it is sent (the best case: the TEST copies show whether it would).
 */
export function simulateCanary(canary: CanaryFacts, recorded: readonly TransitionRow[], from: number, upToMisses: number): CanaryForecast {
  const rows: TransitionRow[] = recorded.map((r) => ({ ...r }));
  const forecast: CanaryForecast = { warnings: [], misses: [] };
  let t = from;
  for (let wake = 0; wake < MAX_WAKES; wake++) {
    rows.push(...planWake(canary, rows, t, 'alarm').rows);
    for (const m of missesToEmit(canary, rows, t)) {
      m.emitted_at = t;
      forecast.misses.push({ at: t, misses: m.misses, deadline: m.cycle_deadline });
    }
    for (const w of warningsToSend(canary, rows, t)) {
      w.emitted_at = t;
      w.delivered_at = t;
      forecast.warnings.push({ at: t, kind: w.kind as 'grace_reminder' | 'late_rewarn' });
      const cycle = rows.filter((r) => r.cycle_deadline === w.cycle_deadline);
      for (const change of countsAfterWarning(canary, cycle, t)) {
        const row = rows.find((r) => r.id === change.id);
        if (row) row.counts_from = change.counts_from;
      }
    }
    if (forecast.misses.some((m) => m.misses >= upToMisses)) break;
    t = nextAttention(canary, rows, t);
  }
  return forecast;
}
