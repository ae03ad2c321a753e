import { createFileRoute, Link } from '@tanstack/react-router';
import { EmptyState } from '../../components/empty-state';
import { CYCLE_LABELS, describePrice, findTier, isBillingCycle } from '../../lib/pricing';
import { usePageTitle } from '../../lib/use-page-title';

interface CheckoutSearch {
  plan?: string;
  cycle?: string;
}

export const Route = createFileRoute('/_public/checkout')({
  validateSearch: (search: Record<string, unknown>): CheckoutSearch => ({
    plan: typeof search.plan === 'string' ? search.plan : undefined,
    cycle: typeof search.cycle === 'string' ? search.cycle : undefined,
  }),
  component: CheckoutPage,
});

function CheckoutPage() {
  usePageTitle('Checkout');
  const { plan, cycle } = Route.useSearch();
  const tier = findTier(plan);
  const chosenCycle = isBillingCycle(cycle) ? cycle : null;
  return (
    <div className="container narrow section">
      <h1>Checkout</h1>
      {tier && chosenCycle ? (
        <p>
          You chose <strong>{tier.name}</strong>, {CYCLE_LABELS[chosenCycle].toLowerCase()}: {describePrice(tier, chosenCycle)}.
        </p>
      ) : null}
      <EmptyState title="Checkout is not available yet.">
        <p>Payments are not open. Nothing has been charged and no plan has changed. Your account keeps working on the Free plan.</p>
      </EmptyState>
      <p className="section">
        <Link to="/pricing">Back to pricing</Link>
      </p>
    </div>
  );
}
