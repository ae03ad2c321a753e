import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/button';
import { QueryState } from '../../components/query-state';
import { PageHeader } from '../../features/app-pages/page-header';
import { chargeSentence } from '../../features/billing/checkout-summary';
import { postSignedEvent } from '../../features/billing/post-signed-event';
import { readApiError } from '../../lib/api-error';
import { CYCLE_LABELS } from '../../lib/pricing';
import { trpc } from '../../lib/trpc';

export const Route = createFileRoute('/app/billing_/sandbox/$id')({
  component: SandboxCheckoutPage,
});

type Outcome = 'pay' | 'decline' | 'cancel';

/**
 * The local payment provider (docs/decisions/billing.md): this page stands in for Stripe's hosted
 * checkout. The server answers the signed event the provider would send; the page posts it to the
 * webhook, exactly as Stripe would, and the plan changes only there.
 */
function SandboxCheckoutPage() {
  const { id } = Route.useParams();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const session = trpc.billing.sandboxSession.useQuery({ id });
  const play = trpc.billing.sandboxPlay.useMutation();
  const [failed, setFailed] = useState<unknown>(null);

  async function finish(outcome: Outcome) {
    setFailed(null);
    try {
      await postSignedEvent(await play.mutateAsync({ id, outcome }));
      await utils.billing.invalidate();
      if (outcome === 'pay') await navigate({ to: '/app/billing', search: { checkout: 'success' } });
      else await session.refetch();
    } catch (err) {
      setFailed(err);
    }
  }

  return (
    <>
      <PageHeader title="Sandbox checkout">
        <p>This is the local payment sandbox: no card is charged. In production this step is Stripe’s checkout page.</p>
      </PageHeader>
      <QueryState query={session} loading="Loading the checkout" failed="This checkout could not be loaded.">
        {(s) => (
          <section className="card" aria-labelledby="sandbox-heading">
            <h2 id="sandbox-heading">
              {s.plan_name}, {CYCLE_LABELS[s.cycle].toLowerCase()}
            </h2>
            <p>{chargeSentence(s)}</p>
            {s.status === 'open' ? (
              <div className="button-row">
                <Button variant="primary" disabled={play.isPending} onClick={() => finish('pay')}>
                  Pay
                </Button>
                <Button variant="secondary" disabled={play.isPending} onClick={() => finish('decline')}>
                  Decline the card
                </Button>
                <Button variant="secondary" disabled={play.isPending} onClick={() => finish('cancel')}>
                  Cancel
                </Button>
              </div>
            ) : (
              <>
                <p role="status" data-testid="sandbox-status">
                  {s.status === 'complete'
                    ? 'Paid.'
                    : s.status === 'declined'
                      ? 'The card was declined. Nothing was charged and your plan has not changed.'
                      : 'Checkout cancelled. Nothing was charged and your plan has not changed.'}
                </p>
                {/* The way on: back to billing, to try another cycle or card. */}
                <p>
                  <Link to="/app/billing">Back to billing</Link>
                </p>
              </>
            )}
            {failed ? (
              <p role="alert" className="field__error">
                The sandbox could not finish: {readApiError(failed).detail ?? (failed instanceof Error ? failed.message : 'try again')}.
              </p>
            ) : null}
          </section>
        )}
      </QueryState>
    </>
  );
}
