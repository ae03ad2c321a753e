/** The shapes the Guardian pages work with: the worker's guardian contracts (docs/api.md, "Guardians and the ladder"). */
import type { TGuardedOwnerView, TGuardianView, TInvitationAnswer } from '@afterword/worker/contracts/guardian';

/** A guardian as its owner sees it. */
export type Guardian = TGuardianView;
/** A person who chose the signed-in account as their guardian. */
export type GuardedOwner = TGuardedOwnerView;
/** What accept and decline answer. */
export type InvitationAnswer = TInvitationAnswer;
