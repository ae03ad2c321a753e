import type { TLegacyPart } from '@afterword/worker/contracts/legacy';

/** The heirs card (Canary Status) and the copies left to you (Inbox). */
export const T = {
  heirsTitle: 'Before your account is deleted',
  heirsIntro:
    'If your dead-man’s switch deletes your account, each person below first receives a copy of the parts you chose, kept in their own account. They are told only after the deletion; a check-in before then cancels everything.',
  noHeirs: 'Nobody yet: your account would be deleted without a copy for anyone.',
  partsLegend: 'What they receive',
  partLabel: { account: 'Profile and settings', messages: 'Messages you wrote', vault: 'Vault files', history: 'Check-in history' } satisfies Record<
    TLegacyPart,
    string
  >,
  recipientLabel: 'Recipient User ID',
  addButton: 'Add this person',
  removeButton: (name: string) => `Remove ${name}`,
  saved: 'Saved',
  failed: 'That did not save. Please try again.',
  needRecipient: 'Pick a contact or enter their user ID',
  needParts: 'Choose at least one part to leave',
  loadFailed: 'The people who receive a copy could not be loaded.',

  copiesTitle: 'Copies left to you',
  copiesIntro: 'What people chose to leave you before their account was closed: one archive each, yours to keep.',
  download: 'Download',
  downloading: 'Preparing…',
  downloadFailed: 'The copy could not be downloaded. Please try again.',
  copiesFailed: 'The copies left to you could not be loaded.',
} as const;
