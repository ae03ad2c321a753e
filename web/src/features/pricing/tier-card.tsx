import { Link } from '@tanstack/react-router';
import { Badge } from '../../components/badge';
import { Button, buttonClass } from '../../components/button';
import { describePrice, type BillingCycle, type Tier } from '../../lib/pricing';

interface TierCardProps {
  tier: Tier;
  cycle: BillingCycle;
  /** Memorial closeout asks for confirmation in a modal before checkout. */
  onChooseCloseout: (tier: Tier) => void;
}

export function TierCard({ tier, cycle, onChooseCloseout }: TierCardProps) {
  // Free has nothing to close out: it stays free, so its card keeps its price beside "Start free".
  const isFree = tier.id === 'free';
  const price = isFree ? 'Free' : describePrice(tier, cycle);
  const offered = cycle !== 'memorial_closeout' || tier.pricing.closeout !== null;
  return (
    <li className={`card tier-card${tier.recommended ? ' tier-card--recommended' : ''}`}>
      <h3 className="tier-card__name">{tier.name}</h3>
      {tier.recommended ? <Badge tone="accent">Recommended</Badge> : null}
      <p className="tier-card__tagline muted">{tier.tagline}</p>
      <p className="tier-card__price">{price}</p>
      {isFree && cycle === 'memorial_closeout' ? <p className="muted tier-card__note">Nothing to close out: Free stays free.</p> : null}
      <ul className="tier-card__features">
        {tier.features.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      {tier.id === 'free' ? (
        <Link to="/signup" className={buttonClass('secondary', 'button--block')}>
          Start free
        </Link>
      ) : !offered ? null : cycle === 'memorial_closeout' ? (
        <Button variant={tier.recommended ? 'primary' : 'secondary'} className="button--block" onClick={() => onChooseCloseout(tier)}>
          Choose closeout<span className="visually-hidden"> for {tier.name}</span>
        </Button>
      ) : (
        <Link to="/checkout" search={{ plan: tier.id, cycle }} className={buttonClass(tier.recommended ? 'primary' : 'secondary', 'button--block')}>
          Choose {tier.name}
        </Link>
      )}
    </li>
  );
}
