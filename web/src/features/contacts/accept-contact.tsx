import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/button';
import { readApiError } from '../../lib/api-error';
import { SignInLinks } from '../auth/sign-in-links';
import type { ContactInvitationAnswer } from './types';

interface AcceptContactProps {
  signedIn: boolean;
  onAccept: () => Promise<ContactInvitationAnswer>;
  onDecline: () => Promise<ContactInvitationAnswer>;
}

type Outcome = { kind: 'done'; message: string } | { kind: 'error'; message: string } | null;

/** Signed out: where to sign in (the link waits). Signed in: Accept and Decline, then what happened. */
export function AcceptContact({ signedIn, onAccept, onDecline }: AcceptContactProps) {
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  if (!signedIn) {
    return (
      <div className="stack">
        <p>Someone invited you to be contacts on Afterword. Sign in, or create an account, to accept or decline.</p>
        <SignInLinks />
      </div>
    );
  }

  async function answer(call: () => Promise<ContactInvitationAnswer>, say: (a: ContactInvitationAnswer) => string) {
    setPending(true);
    try {
      setOutcome({ kind: 'done', message: say(await call()) });
    } catch (error) {
      setOutcome({ kind: 'error', message: readApiError(error).detail ?? 'This invitation could not be answered. Please try again.' });
    } finally {
      setPending(false);
    }
  }

  if (outcome?.kind === 'done') {
    return (
      <div className="stack">
        <p role="status">{outcome.message}</p>
        <p>
          <Link to="/app/contacts">Go to your contacts</Link>
        </p>
      </div>
    );
  }

  return (
    <div className="stack">
      <p>
        Someone invited you to be contacts. As contacts, you can each pick the other by name as the recipient of a message or as a guardian. Accepting shows
        them your name and email; either of you can remove the other at any time.
      </p>
      <div className="button-row">
        <Button disabled={pending} onClick={() => void answer(onAccept, (a) => `You and ${a.inviter_name} are now contacts.`)}>
          Accept
        </Button>
        <Button variant="secondary" disabled={pending} onClick={() => void answer(onDecline, (a) => `You declined the invitation from ${a.inviter_name}.`)}>
          Decline
        </Button>
      </div>
      {outcome?.kind === 'error' ? (
        <p role="alert" className="alert">
          {outcome.message}
        </p>
      ) : null}
    </div>
  );
}
