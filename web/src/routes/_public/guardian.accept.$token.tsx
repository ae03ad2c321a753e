import { createFileRoute } from '@tanstack/react-router';
import { useEffect } from 'react';
import { AcceptInvitation } from '../../features/guardian/accept-invitation';
import { rememberPendingInvite } from '../../features/guardian/pending-invite';
import { getToken } from '../../lib/session';
import { trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';

export const Route = createFileRoute('/_public/guardian/accept/$token')({
  component: AcceptGuardianPage,
});

function AcceptGuardianPage() {
  usePageTitle('Guardian invitation');
  const { token } = Route.useParams();
  const signedIn = getToken() !== null;
  const accept = trpc.guardian.accept.useMutation();
  const decline = trpc.guardian.decline.useMutation();

  // Signed out: keep the token so that, once signed in, the app comes back here (see routes/app.tsx).
  useEffect(() => {
    if (!signedIn) rememberPendingInvite(token);
  }, [signedIn, token]);

  return (
    <div className="container narrow section">
      <h1>Guardian invitation</h1>
      <section className="card">
        <AcceptInvitation signedIn={signedIn} onAccept={() => accept.mutateAsync({ token })} onDecline={() => decline.mutateAsync({ token })} />
      </section>
    </div>
  );
}
