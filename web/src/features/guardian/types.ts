/** The shapes the Guardian pages work with: the worker's guardian contracts (docs/api.md, "Guardians and the ladder"). */
import type {
  TGuardedOwnerView,
  TGuardianAnswerInput,
  TGuardianSettings,
  TGuardianView,
  TInvitationAnswer,
  TLadderView,
  TUpdateGuardianSettingsInput,
} from '@afterword/worker/contracts/guardian';

/** A guardian as its owner sees it. */
export type Guardian = TGuardianView;
/** A person who chose the signed-in account as their guardian. */
export type GuardedOwner = TGuardedOwnerView;
/** What accept and decline answer. */
export type InvitationAnswer = TInvitationAnswer;
/** Quorum, veto window and when guardians are asked. */
export type GuardianSettings = TGuardianSettings;
export type UpdateGuardianSettings = TUpdateGuardianSettingsInput;
/** Where the owner's ladder stands (also read by the dashboard banner). */
export type LadderView = TLadderView;
/** One recorded step of the ladder. */
export type LadderTransition = TLadderView['transitions'][number];
/** A guardian's answer: fine, hold N days, or report death. */
export type GuardianAnswer = TGuardianAnswerInput;
