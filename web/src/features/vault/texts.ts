/*
 * The Vault's sentences in one place. docs/product.md quotes no texts for the vault, so these follow
 * the tone of the ones it does quote: plain, calm, and exact about what will happen.
 */
import { VAULT_ERRORS } from '@afterword/worker/contracts/vault';

export const T = {
  // The form.
  formLabel: 'Store a file in the vault',
  fileLabel: 'File',
  fileHint: 'It is encrypted in your browser before it is uploaded. Afterword never sees its content or its key.',
  fileRequired: 'Choose a file: a vault item needs one.',
  fileTooLarge: (max: string) => `This file is larger than ${max} and cannot be stored.`,
  fileUnreadable: 'This file could not be read or encrypted in your browser. Nothing was sent.',
  recipientLabel: 'Recipient User ID',
  recipientHint: "The recipient's Afterword user ID. They find it on their Notifications page.",
  recipientRequired: "Enter the recipient's user ID.",
  recipientIsYou: 'This is your own user ID: a vault item is for someone else.',
  recipientNoKeys: `${VAULT_ERRORS.recipientHasNoKeys} (or no user has this ID), so the file cannot be encrypted for them. They get keys the next time they sign in with their password.`,
  ownerNoKeys:
    'Your encryption keys are not set up yet, so the file cannot be encrypted. Sign out and sign in again with your email and password to create them.',
  conditionLegend: 'When it is released',
  conditionLabel: 'Condition',
  birthdayLabel: "Recipient's birthday",
  birthdayHint: 'Month and day, as MM-DD (for example 05-14). A full date such as 1990-05-14 works too; only the month and day are kept.',
  birthdayInvalid: 'Enter the birthday as MM-DD (for example 05-14) or as a full date (1990-05-14).',
  everyYear: 'Every year',
  everyYearHint: 'Release it again on each birthday after the first.',
  birthdayNote: 'It is released on their first birthday after your death is confirmed.',
  exactLabel: 'Date and time',
  exactHint: 'Your local time.',
  exactRequired: 'Choose the date and time to release it.',
  exactPast: 'Choose a date and time in the future.',
  deathNote: 'It is released to the recipient once your death is confirmed by your guardians.',
  legalNoteLabel: 'Legal note (optional)',
  legalNoteHint: 'For example, the clause of your will this file relates to. Stored as plain text, not encrypted.',
  consentLabel: 'I have the right to store this file and to give it to this person',
  consentRequired: 'Confirm that you may store this file and give it to this person.',
  submit: 'Save to vault',
  submitting: 'Encrypting and saving…',
  saved: 'Saved in your vault',
  saveFailed: 'The vault item was not saved',
  sealFailed: 'The file could not be encrypted in your browser. Nothing was sent.',

  // The list.
  listLabel: 'Your vault items',
  emptyTitle: 'Your vault is empty.',
  emptyBody: 'Store a file above and choose who receives it, and when.',
  loadFailed: 'Your vault could not be loaded.',
  released: 'Released',
  qrAlt: (name: string) => `QR code of the claim link for ${name}`,
  claimLink: 'Claim link',
  copyLink: 'Copy link',
  linkCopied: 'Claim link copied',
  deleteTitle: 'Delete this vault item?',
  deleteConfirm: 'Delete vault item',
  deleted: 'Vault item deleted',
  deleteFailed: 'The vault item could not be deleted. Please try again.',

  // The claim page.
  claimTitle: 'Something left for you',
  claimChecking: 'Checking this link',
  nothingHere: 'Nothing is waiting under this link',
  nothingHereMore: 'It may have been withdrawn by the person who made it.',
  claimFailed: 'This link could not be checked.',
  waitingAnon: 'Something will be left for you here. It is not available yet.',
  releasedAnon: 'Something has been left for you.',
  signInToSee: 'Sign in or create an account to see who it is from. Afterword does not say what it is to anyone else.',
  waitingFor: (from: string) => `${from} has left something for you. It is not available yet: once it is released, it will be in your inbox.`,
  releasedFor: (from: string) => `${from} left something for you. It is in your inbox.`,
  openInInbox: 'Open it in your inbox',
  someoneElse: 'This link is for someone else. If it was given to you, sign out and sign in with your own account.',
} as const;
