import { useHydrated } from '../../lib/use-hydrated';
import { BILLING_CYCLES, CYCLE_LABELS, type BillingCycle } from '../../lib/pricing';

interface CycleTabsProps {
  value: BillingCycle;
  onChange: (cycle: BillingCycle) => void;
  savingPercent: number;
}

/**
 * Toggle buttons (aria-pressed): each is a plain button, so Tab and Enter/Space just work. /pricing is
 * prerendered (web/scripts/prerender.mjs): until the app has hydrated the buttons are disabled, so a tap
 * in that moment is visibly refused instead of silently lost.
 */
export function CycleTabs({ value, onChange, savingPercent }: CycleTabsProps) {
  const hydrated = useHydrated();
  return (
    <fieldset className="cycle-tabs" aria-label="Billing cycle" disabled={!hydrated}>
      {BILLING_CYCLES.map((cycle) => (
        <button key={cycle} type="button" className="cycle-tabs__tab" aria-pressed={value === cycle} onClick={() => onChange(cycle)}>
          {CYCLE_LABELS[cycle]}
          {cycle === 'annual' && savingPercent > 0 ? <span className="cycle-tabs__saving"> (save {savingPercent}%)</span> : null}
        </button>
      ))}
    </fieldset>
  );
}
