import { createFileRoute, Link } from '@tanstack/react-router';
import { Button, buttonClass } from '../../components/button';
import { toastApiError } from '../../components/toast';
import { QueryState } from '../../components/query-state';
import { PageHeader } from '../../features/app-pages/page-header';
import { MeterBars } from '../../features/billing/meter-bars';
import { formatDate } from '../../lib/format-time';
import { CYCLE_LABELS } from '../../lib/pricing';
import { trpc } from '../../lib/trpc';

export const Route = createFileRoute('/app/billing')({
  validateSearch: (search: Record<string, unknown>): { checkout?: string } => ({ checkout: typeof search.checkout === 'string' ? search.checkout : undefined }),
  component: BillingPage,
});

const STANDING = {
  free: 'Free plan',
  active: 'Active',
  past_due: 'A payment did not go through: your account has the Free plan’s limits for new things until it does. Nothing is deleted.',
  canceled: 'Ended: your account is on the Free plan. Nothing is deleted.',
} as const;

/** Opens the provider's customer portal: cancel, resume, change cycle or card (Stripe's page, or the sandbox's). */
function ManagePlanButton() {
  const portal = trpc.billing.portal.useMutation({
    onSuccess: ({ url }) => window.location.assign(url),
    onError: toastApiError('The billing portal could not be opened. Please try again.'),
  });
  return (
    <Button variant="secondary" disabled={portal.isPending || portal.isSuccess} onClick={() => portal.mutate()}>
      Manage plan
    </Button>
  );
}

/** The plan, its cycle and renewal or end, and every meter with a bar (docs/decisions/billing.md). */
function BillingPage() {
  const { checkout } = Route.useSearch();
  const billing = trpc.billing.get.useQuery();
  return (
    <>
      <PageHeader title="Plan and billing" />
      {checkout === 'success' ? <p role="status">Thank you. Your plan changes as soon as the payment is confirmed.</p> : null}
      <QueryState query={billing} loading="Loading your plan" failed="Your plan could not be loaded.">
        {(b) => (
          <>
            <section className="card" aria-labelledby="plan-heading">
              <h2 id="plan-heading" data-testid="billing-plan">
                {b.plan_name}
              </h2>
              <p>{STANDING[b.status]}</p>
              {b.cycle ? <p>Billing: {CYCLE_LABELS[b.cycle]}</p> : null}
              {b.renews_at && b.cancel_at_period_end ? (
                <p>Cancelled: it ends on {formatDate(b.renews_at)}, and the account then moves to the Free plan. Nothing is deleted.</p>
              ) : b.renews_at ? (
                <p>Renews on {formatDate(b.renews_at)}</p>
              ) : null}
              {b.ends_at ? <p>Ends on {formatDate(b.ends_at)}</p> : null}
              {b.cycle === 'lifetime' && b.status === 'active' ? <p>Paid for life: it does not renew.</p> : null}
              <div className="button-row">
                <Link to="/pricing" className={buttonClass('primary')}>
                  {b.plan === 'immortality' ? 'See the plans' : 'Upgrade'}
                </Link>
                {b.can_manage ? <ManagePlanButton /> : null}
              </div>
            </section>
            <section className="section" aria-labelledby="meters-heading">
              <h2 id="meters-heading">Usage</h2>
              <MeterBars meters={b.meters} />
            </section>
          </>
        )}
      </QueryState>
    </>
  );
}
