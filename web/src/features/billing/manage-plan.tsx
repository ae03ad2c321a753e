import type { BillingView } from '@afterword/worker/contracts/billing';
import { PLAN_LIMITS } from '@afterword/worker/contracts/plans';
import { useState } from 'react';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatDate } from '../../lib/format-time';

export type PortalAction = 'cancel' | 'resume' | 'switch_cycle' | 'update_card';

interface ManagePlanProps {
  billing: BillingView;
  /** Plays one action; resolves once the plan changed. */
  onAction: (action: PortalAction) => Promise<void>;
  pending: boolean;
}

/** What ending the plan means, in the words the owner reads before they choose. */
export function cancelConsequence(b: Pick<BillingView, 'purchased_plan' | 'renews_at'>): string {
  const name = b.purchased_plan ? PLAN_LIMITS[b.purchased_plan].name : 'paid';
  const until = b.renews_at ? ` until ${formatDate(b.renews_at)}` : ' until the end of the paid period';
  return `Your ${name} plan stays${until}, and you are not charged again. Then your account moves to the Free plan: nothing you made is deleted, and only creating more than Free allows is refused. You can take this back until then.`;
}

/**
 * The sandbox's customer portal (docs/decisions/billing.md "Managing a subscription"): what Stripe's portal
 * offers — cancel at the end of the period (asked first), take it back, switch cycle, change the card.
 */
export function ManagePlan({ billing: b, onAction, pending }: ManagePlanProps) {
  const [asking, setAsking] = useState(false);
  const otherCycle = b.cycle === 'annual' ? 'monthly' : 'annual';
  return (
    <div className="stack">
      {b.cancel_at_period_end ? (
        <p role="status">{`Cancelled: your plan ends on ${b.renews_at ? formatDate(b.renews_at) : 'the last day of the paid period'}. Nothing is deleted.`}</p>
      ) : null}
      {b.status === 'past_due' ? <p role="status">The last payment did not go through. Use another card to restore your plan.</p> : null}
      <div className="button-row">
        {b.cancel_at_period_end ? (
          <Button disabled={pending} onClick={() => onAction('resume')}>
            Keep my plan
          </Button>
        ) : (
          <Button variant="danger" disabled={pending} onClick={() => setAsking(true)}>
            Cancel plan
          </Button>
        )}
        <Button variant="secondary" disabled={pending} onClick={() => onAction('switch_cycle')}>
          {`Switch to ${otherCycle} billing`}
        </Button>
        <Button variant="secondary" disabled={pending} onClick={() => onAction('update_card')}>
          Use another card
        </Button>
      </div>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title="Cancel your plan?"
        description={cancelConsequence(b)}
        confirmLabel="Cancel plan"
        cancelLabel="Keep my plan"
        confirmVariant="danger"
        pending={pending}
        onConfirm={async () => {
          await onAction('cancel');
          setAsking(false);
        }}
      />
    </div>
  );
}
