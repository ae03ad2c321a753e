import type { GuardianStatus, LadderStage } from '@afterword/worker/contracts/guardian';

export const T = {
  assigned: 'Guardian assigned',
  emailRequired: 'Enter the email address of the person you trust.',
  consentRequired: 'Confirm that this person agreed to be asked about you.',
  revokeTitle: 'Revoke this guardian?',
  revokeConfirm: 'Revoke guardian',
  signInFirst: 'Sign in or create an account to answer this invitation.',
  loadFailed: 'This could not be loaded. Reload the page to try again.',
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
