import { createFileRoute } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ErrorState } from '../../components/error-state';
import { ClaimView, type ClaimLookup } from '../../features/vault/claim-view';
import { rememberPendingClaim } from '../../features/vault/pending-claim';
import { T } from '../../features/vault/texts';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';

export const Route = createFileRoute('/_public/claim/$token')({
  component: ClaimPage,
});

function ClaimPage() {
  usePageTitle(T.claimTitle);
  const { token } = Route.useParams();
  // Public: with a session the server also says whether the signed-in person is the recipient.
  const claim = trpc.vault.claim.useQuery({ token }, { retry: false });
  const status = claim.isError ? readApiError(claim.error).status : null;
  // A malformed token (422) is as empty as an unknown one (404).
  const lookup: ClaimLookup = claim.isPending
    ? { kind: 'loading' }
    : claim.isError
      ? status === 404 || status === 422
        ? { kind: 'not-found' }
        : { kind: 'failed' }
      : { kind: 'found', claim: claim.data };
  const anonymous = lookup.kind === 'found' && lookup.claim.for_you === null && lookup.claim.state !== 'withdrawn';

  // Signed out: keep the token so that, once signed in, the app comes back here (see routes/app.tsx).
  useEffect(() => {
    if (anonymous) rememberPendingClaim(token);
  }, [anonymous, token]);

  return (
    <div className="container narrow section">
      <h1>{T.claimTitle}</h1>
      <section className="card">{lookup.kind === 'failed' ? <ErrorState title={T.claimFailed} read={claim} /> : <ClaimView lookup={lookup} />}</section>
    </div>
  );
}
