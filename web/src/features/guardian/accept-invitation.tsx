import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/button';
import { readApiError } from '../../lib/api-error';
import { SignInLinks } from '../auth/sign-in-links';
import { T } from './texts';
import type { InvitationAnswer } from './types';

interface AcceptInvitationProps {
  signedIn: boolean;
  onAccept: () => Promise<InvitationAnswer>;
  onDecline: () => Promise<InvitationAnswer>;
}

type Outcome = { kind: 'done'; message: string } | { kind: 'error'; message: string } | null;

/** Signed out: where to sign in. Signed in: Accept and Decline, then what happened in the server's words. */
export function AcceptInvitation({ signedIn, onAccept, onDecline }: AcceptInvitationProps) {
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  if (!signedIn) {
    return (
      <div className="stack">
        <p>{T.signInFirst}</p>
        <SignInLinks />
      </div>
    );
  }

  async function answer(call: () => Promise<InvitationAnswer>, say: (a: InvitationAnswer) => string) {
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
          <Link to="/app/guardian">Go to your guardian page</Link>
        </p>
      </div>
    );
  }

  return (
    <div className="stack">
      <p>Someone chose you as their guardian. If they stop checking in, you are asked whether you have heard from them.</p>
      <div className="button-row">
        <Button disabled={pending} onClick={() => void answer(onAccept, (a) => `You are now a guardian for ${a.owner_name}.`)}>
          Accept
        </Button>
        <Button variant="secondary" disabled={pending} onClick={() => void answer(onDecline, (a) => `You declined to be a guardian for ${a.owner_name}.`)}>
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
