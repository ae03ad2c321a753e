import { createFileRoute, Link } from '@tanstack/react-router';
import { QueryState } from '../../components/query-state';
import { toast, toastApiError } from '../../components/toast';
import { PageHeader } from '../../features/app-pages/page-header';
import { ManagePlan, type PortalAction } from '../../features/billing/manage-plan';
import { postSignedEvent } from '../../features/billing/post-signed-event';
import { CYCLE_LABELS } from '../../lib/pricing';
import { trpc } from '../../lib/trpc';
import { PLAN_LIMITS } from '@afterword/worker/contracts/plans';

export const Route = createFileRoute('/app/billing_/portal')({
  component: SandboxPortalPage,
});

const DONE: Record<PortalAction, string> = {
  cancel: 'Your plan will end at the end of the paid period',
  resume: 'Your plan continues',
  switch_cycle: 'Billing cycle changed',
  update_card: 'Card updated',
};

/**
 * The local payment provider's customer portal (docs/decisions/billing.md): this page stands in for Stripe's.
 * Each action answers the signed event Stripe would send, posted to the webhook, where the plan changes.
 */
function SandboxPortalPage() {
  const utils = trpc.useUtils();
  const billing = trpc.billing.get.useQuery();
  const play = trpc.billing.sandboxPortal.useMutation();

  async function act(action: PortalAction) {
    try {
      await postSignedEvent(await play.mutateAsync({ action }));
      await utils.billing.invalidate();
      toast.success(DONE[action]);
    } catch (err) {
      toastApiError('The sandbox could not make that change. Please try again.')(err);
    }
  }

  return (
    <>
      <PageHeader title="Sandbox billing portal">
        <p>This is the local payment sandbox: no card is charged. In production this page is Stripe’s customer portal.</p>
      </PageHeader>
      <QueryState query={billing} loading="Loading your plan" failed="Your plan could not be loaded.">
        {(b) => (
          <section className="card" aria-labelledby="portal-heading">
            <h2 id="portal-heading">
              {b.purchased_plan ? PLAN_LIMITS[b.purchased_plan].name : b.plan_name}
              {b.cycle ? `, ${CYCLE_LABELS[b.cycle].toLowerCase()}` : ''}
            </h2>
            {b.can_manage ? <ManagePlan billing={b} onAction={act} pending={play.isPending} /> : <p>You have no subscription to manage.</p>}
            <p>
              <Link to="/app/billing">Back to billing</Link>
            </p>
          </section>
        )}
      </QueryState>
    </>
  );
}
