import { createFileRoute } from '@tanstack/react-router';
import { useEffect } from 'react';
import { AcceptContact } from '../../features/contacts/accept-contact';
import { rememberPendingContact } from '../../features/contacts/pending-contact';
import { getToken } from '../../lib/session';
import { trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';

export const Route = createFileRoute('/_public/contacts/accept/$token')({
  component: AcceptContactPage,
});

function AcceptContactPage() {
  usePageTitle('Contact invitation');
  const { token } = Route.useParams();
  const signedIn = getToken() !== null;
  const utils = trpc.useUtils();
  const refresh = () => void utils.contacts.list.invalidate();
  const accept = trpc.contacts.accept.useMutation({ onSuccess: refresh });
  const decline = trpc.contacts.decline.useMutation({ onSuccess: refresh });

  // Signed out: keep the token so that, once signed in, the app comes back here (see routes/app.tsx).
  useEffect(() => {
    if (!signedIn) rememberPendingContact(token);
  }, [signedIn, token]);

  return (
    <div className="container narrow section">
      <h1>Contact invitation</h1>
      <section className="card">
        <AcceptContact signedIn={signedIn} onAccept={() => accept.mutateAsync({ token })} onDecline={() => decline.mutateAsync({ token })} />
      </section>
    </div>
  );
}
