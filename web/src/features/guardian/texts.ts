import type { GuardianStatus, LadderStage, TLadderView } from '@afterword/worker/contracts/guardian';

export const T = {
  assigned: 'Guardian assigned',
  emailRequired: 'Enter the email address of the person you trust.',
  consentRequired: 'Confirm that this person agreed to be asked about you.',
  revokeTitle: 'Revoke this guardian?',
  revokeConfirm: 'Revoke guardian',
  signInFirst: 'Sign in or create an account to answer this invitation.',
  loadFailed: 'This could not be loaded.',
  settingsSaved: 'Guardian settings saved',
  settingsFailed: 'Could not save the settings. Please try again.',
  answerFailed: 'Could not record your answer. Please try again.',
  fineRecorded: 'Thank you. They are asked to check in.',
  deathReported: 'Your report is recorded.',
  alreadyReported: 'You had already reported this. Nothing changed.',
  holdRecorded: (until: string) => `Hold recorded until ${until}.`,
  resigned: 'You are no longer their guardian.',
  resignFailed: 'Could not resign. Please try again.',
  holdDaysInvalid: (max: number) => `Enter a whole number of days from 1 to ${max}.`,
  reportTitle: (name: string) => `Report ${name}'s death?`,
  reportConfirm: 'Report death',
  resignTitle: (name: string) => `Resign as ${name}'s guardian?`,
  resignConfirm: 'Resign',
  bannerRefutes: 'Checking in now refutes the report: press Heartbeat, or check in any other way.',
  bannerLink: 'See the guardian ladder',
  timelineEmpty: 'Nothing has happened yet.',
} as const;

export const STATUS_LABEL: Record<GuardianStatus, string> = {
  invited: 'Invited',
  active: 'Active',
  declined: 'Declined',
  revoked: 'Revoked',
  resigned: 'Resigned',
};

export const STAGE_LABEL: Record<LadderStage, string> = {
  no_guardians: 'No guardians',
  watching: 'Checking in',
  missed: 'Missed a check-in',
  reported: 'Death reported',
  veto_window: 'Veto window open',
  on_hold: 'On hold',
  confirmed: 'Death confirmed',
};

type NextStep = NonNullable<TLadderView['next']>['what'];
/** What happens at `next.at`, said to the owner. */
export const NEXT_LABEL: Record<NextStep, string> = {
  veto_halfway: 'You are reminded again, halfway through the veto window',
  death_confirmed: 'Your death is confirmed, unless you check in before',
  hold_ends: "A guardian's hold ends; then your death is confirmed, unless you check in before",
};

/** Ladder steps by their recorded `kind`; the contract keeps `kind` open, so unknown ones fall back to their name. */
export const STEP_LABEL: Record<string, string> = {
  guardian_invited: 'Guardian invited',
  guardian_accepted: 'Guardian accepted',
  guardian_declined: 'Invitation declined',
  guardian_revoked: 'Guardian revoked',
  guardian_resigned: 'Guardian resigned',
  guardians_asked: 'Guardians asked about you',
  guardian_fine: 'A guardian said you are fine',
  hold: 'A guardian asked to hold',
  death_reported: 'Death reported',
  veto_opened: 'Veto window opened',
  veto_halfway: 'Halfway reminder sent',
  refuted: 'Report refuted',
  death_confirmed: 'Death confirmed',
  settings_changed: 'Settings changed',
};

/** Why a step happened, by its recorded `cause`. */
export const CAUSE_LABEL: Record<string, string> = {
  owner_invited: 'You sent an invitation.',
  invitation_accepted: 'They accepted your invitation.',
  invitation_declined: 'They declined your invitation.',
  owner_revoked: 'You revoked them.',
  guardian_resigned: 'They chose to stop being your guardian.',
  account_deleted: 'Their account was deleted.',
  missed_checkins: 'You missed a check-in.',
  guardian_answered: 'They answered when asked about you.',
  guardian_report: 'A guardian reported it.',
  key_report: 'An API key with the death-verification scope reported it.',
  quorum_reached: 'Enough guardians reported it.',
  halfway: 'Half of the veto window has passed.',
  check_in: 'You checked in.',
  veto_window_ended: 'The veto window ended without a check-in.',
  owner_changed_settings: 'You changed the settings.',
};

/** The guardian's own answers, as they see them on "People who chose you". */
export const MY_ANSWER_LABEL: Record<string, string> = {
  guardian_accepted: 'You accepted',
  guardian_fine: 'You said they are fine',
  hold: 'You asked to hold',
  death_reported: 'You reported their death',
  guardian_resigned: 'You resigned',
};

/** 'veto_opened' → 'Veto opened': an unknown kind or cause is still readable. */
export const humanize = (code: string) => {
  const words = code.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};
