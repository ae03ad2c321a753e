import { AnswerInvitation } from '../invitations/answer-invitation';
import type { ContactInvitationAnswer } from './types';

interface AcceptContactProps {
  signedIn: boolean;
  onAccept: () => Promise<ContactInvitationAnswer>;
  onDecline: () => Promise<ContactInvitationAnswer>;
}

/** Signed out: where to sign in (the link waits). Signed in: Accept and Decline, then what happened. */
export function AcceptContact({ signedIn, onAccept, onDecline }: AcceptContactProps) {
  return (
    <AnswerInvitation
      signedIn={signedIn}
      signedOutText="Someone invited you to be contacts on Afterword. Sign in, or create an account, to accept or decline."
      intro="Someone invited you to be contacts. As contacts, you can each pick the other by name as the recipient of a message or as a guardian. Accepting shows them your name and email; either of you can remove the other at any time."
      onAccept={onAccept}
      onDecline={onDecline}
      accepted={(a) => `You and ${a.inviter_name} are now contacts.`}
      declined={(a) => `You declined the invitation from ${a.inviter_name}.`}
      next={{ to: '/app/contacts', label: 'Go to your contacts' }}
    />
  );
}
