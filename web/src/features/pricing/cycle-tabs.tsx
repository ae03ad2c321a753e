import { BILLING_CYCLES, CYCLE_LABELS, type BillingCycle } from '../../lib/pricing';

interface CycleTabsProps {
  value: BillingCycle;
  onChange: (cycle: BillingCycle) => void;
  savingPercent: number;
}

/** Toggle buttons (aria-pressed): each is a plain button, so Tab and Enter/Space just work. */
export function CycleTabs({ value, onChange, savingPercent }: CycleTabsProps) {
  return (
    <fieldset className="cycle-tabs" aria-label="Billing cycle">
      {BILLING_CYCLES.map((cycle) => (
        <button key={cycle} type="button" className="cycle-tabs__tab" aria-pressed={value === cycle} onClick={() => onChange(cycle)}>
          {CYCLE_LABELS[cycle]}
          {cycle === 'annual' && savingPercent > 0 ? <span className="cycle-tabs__saving"> (save {savingPercent}%)</span> : null}
        </button>
      ))}
    </fieldset>
  );
}
