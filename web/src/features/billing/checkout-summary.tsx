import type { CheckoutQuote } from '@afterword/worker/contracts/billing';
import { PLAN_LIMITS, type BillingCycle, type PaidPlanId } from '@afterword/worker/contracts/plans';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button, buttonClass } from '../../components/button';
import { QueryState } from '../../components/query-state';
import { readApiError } from '../../lib/api-error';
import { CYCLE_LABELS, formatUsd } from '../../lib/pricing';
import { trpc } from '../../lib/trpc';

const usd = (cents: number) => formatUsd(cents / 100);

/** "$49 every year", "$149 once", "$99 once, for 5 years". */
export function chargeSentence(q: Pick<CheckoutQuote, 'amount_cents' | 'interval' | 'years'>): string {
  if (q.interval) return `${usd(q.amount_cents)} every ${q.interval}, until you cancel`;
  return q.years ? `${usd(q.amount_cents)} once, covering ${q.years} years` : `${usd(q.amount_cents)} once, for life`;
}

/** What a checkout charges and changes (the server's quote), then the button that opens the provider's page. */
export function CheckoutSummary({ plan, cycle }: { plan: PaidPlanId; cycle: BillingCycle }) {
  const quote = trpc.billing.quote.useQuery({ plan, cycle });
  const checkout = trpc.billing.checkout.useMutation({
    onSuccess: (session) => {
      window.location.assign(session.url);
    },
  });
  const [leaving, setLeaving] = useState(false);
  return (
    <QueryState query={quote} loading="Working out the price" failed="The price could not be worked out.">
      {(q) => (
        <section className="card" aria-labelledby="charge-heading">
          <h2 id="charge-heading">
            {q.plan_name}, {CYCLE_LABELS[q.cycle].toLowerCase()}
          </h2>
          <dl className="checkout-summary">
            <dt>You pay</dt>
            <dd data-testid="checkout-charge">{chargeSentence(q)}</dd>
            {q.discount_percent > 0 ? (
              <>
                <dt>Family continuation</dt>
                <dd>
                  {q.discount_percent}% off the list price of {usd(q.list_cents)}
                </dd>
              </>
            ) : null}
            <dt>Your plan now</dt>
            <dd>{PLAN_LIMITS[q.current_plan].name}</dd>
          </dl>
          <h3>What changes</h3>
          <ul>
            {q.changes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <p className="muted">Your plan changes as soon as the payment is confirmed. Nothing you have made is ever deleted if a payment fails later.</p>
          {checkout.isError ? (
            <p role="alert" className="field__error">
              The checkout could not be opened: {readApiError(checkout.error).detail ?? 'try again'}.
            </p>
          ) : null}
          <div className="button-row">
            <Button
              variant="primary"
              disabled={checkout.isPending || leaving}
              onClick={() => {
                setLeaving(true);
                checkout.mutate({ plan, cycle }, { onError: () => setLeaving(false) });
              }}
            >
              Continue to payment
            </Button>
            <Link to="/pricing" className={buttonClass('secondary')}>
              Back to pricing
            </Link>
          </div>
        </section>
      )}
    </QueryState>
  );
}
