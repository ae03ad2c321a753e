import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { Button } from '../../components/button';
import { readApiError } from '../../lib/api-error';
import { SignInLinks } from '../auth/sign-in-links';

export interface AnswerInvitationProps<A> {
  signedIn: boolean;
  /** Said to a signed-out visitor above the sign-in links (the link waits for them). */
  signedOutText: ReactNode;
  /** What accepting means, above the two buttons. */
  intro: ReactNode;
  onAccept: () => Promise<A>;
  onDecline: () => Promise<A>;
  accepted: (answer: A) => string;
  declined: (answer: A) => string;
  /** Where to go once answered. */
  next: { to: '/app/contacts' | '/app/guardian'; label: string };
}

type Outcome = { kind: 'done'; message: string } | { kind: 'error'; message: string } | null;

/**
 * An invitation link's page (a guardian's, a contact's): signed out, where to sign in; signed in, Accept
 * and Decline, then what happened — or the server's reason, with the buttons still there.
 */
export function AnswerInvitation<A>({ signedIn, signedOutText, intro, onAccept, onDecline, accepted, declined, next }: AnswerInvitationProps<A>) {
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  if (!signedIn) {
    return (
      <div className="stack">
        <p>{signedOutText}</p>
        <SignInLinks />
      </div>
    );
  }

  async function answer(call: () => Promise<A>, say: (a: A) => string) {
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
          <Link to={next.to}>{next.label}</Link>
        </p>
      </div>
    );
  }

  return (
    <div className="stack">
      <p>{intro}</p>
      <div className="button-row">
        <Button disabled={pending} onClick={() => void answer(onAccept, accepted)}>
          Accept
        </Button>
        <Button variant="secondary" disabled={pending} onClick={() => void answer(onDecline, declined)}>
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
