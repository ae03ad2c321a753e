import type { VaultClaimView } from '@afterword/worker/contracts/vault';
import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { Skeleton } from '../../components/skeleton';
import { SignInLinks } from '../auth/sign-in-links';
import { T } from './texts';

export type ClaimLookup = { kind: 'loading' } | { kind: 'not-found' } | { kind: 'failed' } | { kind: 'found'; claim: VaultClaimView };

/**
 * What a claim link (a vault item's QR code) says. Never what was left: to a visitor only that something
 * is or will be there; to the recipient, signed in, also from whom and where to open it.
 */
export function ClaimView({ lookup }: { lookup: ClaimLookup }) {
  if (lookup.kind === 'loading') return <Skeleton lines={2} label={T.claimChecking} />;
  if (lookup.kind === 'failed') return <p role="alert">{T.claimFailed}</p>;
  if (lookup.kind === 'not-found' || lookup.claim.state === 'withdrawn') {
    return (
      <div className="stack">
        <p className="empty-state__title">{T.nothingHere}</p>
        <p>{T.nothingHereMore}</p>
      </div>
    );
  }
  const { claim } = lookup;
  const released = claim.state === 'released';

  if (claim.for_you === null) {
    return (
      <div className="stack">
        <p>{released ? T.releasedAnon : T.waitingAnon}</p>
        <p>{T.signInToSee}</p>
        <SignInLinks />
      </div>
    );
  }

  if (!claim.for_you) return <p>{T.someoneElse}</p>;

  const from = claim.from_name ?? 'Someone';
  return (
    <div className="stack">
      <p>{released ? T.releasedFor(from) : T.waitingFor(from)}</p>
      {released && claim.message_id ? (
        <p>
          <Link to="/app/messages/view/$id" params={{ id: claim.message_id }} className={buttonClass('primary')}>
            {T.openInInbox}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
