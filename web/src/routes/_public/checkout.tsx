import { PAID_PLAN_IDS, type PaidPlanId } from '@afterword/worker/contracts/plans';
import { createFileRoute, Link } from '@tanstack/react-router';
import { EmptyState } from '../../components/empty-state';
import { CheckoutSummary } from '../../features/billing/checkout-summary';
import { CYCLE_LABELS, describePrice, findTier, isBillingCycle } from '../../lib/pricing';
import { getToken } from '../../lib/session';
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

const isPaidPlan = (v: unknown): v is PaidPlanId => PAID_PLAN_IDS.includes(v as PaidPlanId);

/**
 * docs/product.md "Plans and billing": /checkout?plan&cycle shows what will be charged and what changes, then
 * opens the provider's page.
 */
function CheckoutPage() {
  usePageTitle('Checkout');
  const { plan, cycle } = Route.useSearch();
  const tier = findTier(plan);
  const chosenCycle = isBillingCycle(cycle) ? cycle : null;
  const signedIn = getToken() !== null;
  return (
    <div className="container narrow section">
      <h1>Checkout</h1>
      {!tier || !chosenCycle || !isPaidPlan(plan) ? (
        <EmptyState title="Choose a plan first.">
          <p>
            This page needs a paid plan and a billing cycle. <Link to="/pricing">See the plans</Link>.
          </p>
        </EmptyState>
      ) : !signedIn ? (
        <EmptyState title="Log in to continue.">
          <p>
            You chose <strong>{tier.name}</strong>, {CYCLE_LABELS[chosenCycle].toLowerCase()}: {describePrice(tier, chosenCycle)}. The plan is attached to your
            account, so <Link to="/login">log in</Link> (or <Link to="/signup">sign up</Link>) and choose it again on <Link to="/pricing">Pricing</Link>.
          </p>
        </EmptyState>
      ) : (
        <CheckoutSummary plan={plan} cycle={chosenCycle} />
      )}
    </div>
  );
}
