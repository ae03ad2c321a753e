/** The export and account-deletion cards of the Data Consents page. */
export const T = {
  exportTitle: 'Your data',
  exportIntro:
    'Download everything we hold about you as one ZIP archive: your records, your recordings and files, and those released to you. Open its index.html to read it in your browser; end-to-end encrypted messages and files stay encrypted, and its open-encrypted-files.html opens them offline with your recovery key or password.',
  exportButton: 'Download my data',
  exporting: 'Preparing your archive…',
  exported: 'Your archive is downloading',
  exportFailed: 'Your archive could not be made. Please try again.',

  deleteTitle: 'Delete your account',
  deleteIntro:
    'Everything is erased 7 days after you ask: your messages and files, recordings, guardians and history. Messages not released yet will never be. You can cancel until then, and we tell you on every channel.',
  passwordLabel: 'Your password',
  deleteButton: 'Delete my account',
  confirmTitle: 'Delete your account in 7 days?',
  confirmBody: (when: string) => `On ${when} everything we hold about you is erased, and it cannot be undone. Until then you can cancel here.`,
  confirmLabel: 'Delete my account',
  scheduled: (when: string) => `Your account will be deleted on ${when}.`,
  requested: 'Your account will be deleted in 7 days',
  cancelButton: 'Cancel the deletion',
  cancelled: 'The deletion of your account is cancelled',
  failed: 'That did not work. Please try again.',
  loadFailed: 'Your scheduled deletions could not be loaded.',
} as const;
