import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ComparisonTable } from '../../features/pricing/comparison-table';
import { CloseoutModal } from '../../features/pricing/closeout-modal';
import { CycleTabs } from '../../features/pricing/cycle-tabs';
import { TierCard } from '../../features/pricing/tier-card';
import { annualSavingPercent, DEFAULT_CYCLE, FAMILY_CONTINUATION_DISCOUNT_PERCENT, TIERS, type BillingCycle, type Tier } from '../../lib/pricing';
import { useSignedIn } from '../../lib/use-hydrated';
import { usePageTitle } from '../../lib/use-page-title';

export const Route = createFileRoute('/_public/pricing')({
  component: PricingPage,
});

function PricingPage() {
  usePageTitle('Pricing');
  const [cycle, setCycle] = useState<BillingCycle>(DEFAULT_CYCLE);
  const signedIn = useSignedIn();
  const [closeoutTier, setCloseoutTier] = useState<Tier | null>(null);
  return (
    <div className="container section">
      <h1>Pricing</h1>
      <p className="muted">Prices in US dollars. Start free and change plans at any time.</p>
      {signedIn ? (
        <p>
          <Link to="/app/billing">Your plan and usage</Link>
        </p>
      ) : null}
      <CycleTabs value={cycle} onChange={setCycle} savingPercent={annualSavingPercent()} />
      <h2 className="visually-hidden">Plans</h2>
      <ul className="tier-grid">
        {TIERS.map((tier) => (
          <TierCard key={tier.id} tier={tier} cycle={cycle} onChooseCloseout={setCloseoutTier} />
        ))}
      </ul>
      <section className="section" aria-labelledby="compare-heading">
        <h2 id="compare-heading">Feature comparison</h2>
        <ComparisonTable />
      </section>
      <section className="section card" aria-labelledby="promise-title">
        <h2 id="promise-title">Our Compassion Promise</h2>
        <ul>
          <li>We never delete an account because a payment was missed.</li>
          <li>After 12 months of inactivity you get a free 12-month window to export everything before it is archived.</li>
          <li>Families continuing a loved one's plan receive a {FAMILY_CONTINUATION_DISCOUNT_PERCENT}% family continuation discount.</li>
        </ul>
      </section>
      <CloseoutModal tier={closeoutTier} onClose={() => setCloseoutTier(null)} />
    </div>
  );
}
