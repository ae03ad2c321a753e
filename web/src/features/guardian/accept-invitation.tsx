import { AnswerInvitation } from '../invitations/answer-invitation';
import { T } from './texts';
import type { InvitationAnswer } from './types';

interface AcceptInvitationProps {
  signedIn: boolean;
  onAccept: () => Promise<InvitationAnswer>;
  onDecline: () => Promise<InvitationAnswer>;
}

/** Signed out: where to sign in. Signed in: Accept and Decline, then what happened in the server's words. */
export function AcceptInvitation({ signedIn, onAccept, onDecline }: AcceptInvitationProps) {
  return (
    <AnswerInvitation
      signedIn={signedIn}
      signedOutText={T.signInFirst}
      intro="Someone chose you as their guardian. If they stop checking in, you are asked whether you have heard from them."
      onAccept={onAccept}
      onDecline={onDecline}
      accepted={(a) => `You are now a guardian for ${a.owner_name}.`}
      declined={(a) => `You declined to be a guardian for ${a.owner_name}.`}
      next={{ to: '/app/guardian', label: 'Go to your guardian page' }}
    />
  );
}
