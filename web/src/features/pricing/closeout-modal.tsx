import { Link } from '@tanstack/react-router';
import { Button, buttonClass } from '../../components/button';
import { Modal, ModalClose } from '../../components/modal';
import { formatUsd, type Tier } from '../../lib/pricing';

interface CloseoutModalProps {
  tier: Tier | null;
  onClose: () => void;
}

/** docs/product.md "Plans and billing": choosing memorial closeout explains it first, then goes to checkout. */
export function CloseoutModal({ tier, onClose }: CloseoutModalProps) {
  const closeout = tier?.pricing.closeout;
  return (
    <Modal
      open={tier !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Memorial closeout"
      description={
        tier && closeout
          ? `One payment of ${formatUsd(closeout.price)} keeps ${tier.name} running for ${closeout.years} years, so a memorial and its messages stay available to family without a subscription.`
          : undefined
      }
      footer={
        <>
          <ModalClose asChild>
            <Button variant="secondary">Cancel</Button>
          </ModalClose>
          {tier ? (
            <Link to="/checkout" search={{ plan: tier.id, cycle: 'memorial_closeout' }} className={buttonClass('primary')}>
              Continue to checkout
            </Link>
          ) : null}
        </>
      }
    />
  );
}
