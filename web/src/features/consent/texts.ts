import type { TConsentKind } from '@afterword/worker/contracts/legal';

/**
 * The Data Consents page's words (docs/product.md quotes none for it). What stops comes from the contract:
 * CONSENT_STOPS.
 */
export const T = {
  title: 'Data Consents',
  intro:
    'Choose what Afterword may process for you. Everything is allowed when you sign up; turning a kind off stops it at once, and turning it back on resumes it.',
  cardTitle: 'What Afterword may process',
  loading: 'Loading your consents',
  loadFailed: 'Your consents could not be loaded.',
  neverChanged: 'Allowed since you signed up',
  allowed: (label: string) => `${label} allowed again`,
  withdrawn: (label: string) => `${label} withdrawn`,
  saveFailed: 'Could not change this consent. Please try again.',
  notYetBuilt: 'Not built yet: your choice is kept and applies as soon as it is.',
} as const;

export const KIND_LABEL: Record<TConsentKind, string> = {
  messages: 'Messages',
  confessions: 'Confessions',
  voice: 'Voice',
  video: 'Video',
  guardian: 'Guardians',
};

/** Kinds whose capability is not built yet (video items): the state is stored and enforced when they land. */
export const NOT_YET_BUILT: readonly TConsentKind[] = ['video'];

/**
 * The dialog before a withdrawal that erases (CONSENT_ERASES in the contract says which and what goes):
 * the others only pause, and resume when allowed again.
 */
export const ERASE_DIALOG = {
  title: (label: string) => `Turn off ${label} and delete your ${label.toLowerCase()}?`,
  body: (erases: string, label: string) => `${erases} Turning ${label} on again later starts from nothing.`,
  confirm: 'Turn off and delete',
} as const;
