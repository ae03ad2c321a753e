/*
 * Every user-facing sentence of end-to-end encryption in one place
 * (docs/product.md "Messages and release rules" and docs/product.md "End-to-end encryption" give the exact
 * warning and upload texts; the rest is ours: plain, honest, and never blaming the user).
 */

/** docs/product.md "Messages and release rules", exact. */
export const E2EE_WARNING =
  'Warning: This will send an unreadable encrypted message to the recipient who can only decrypt it if they hold the required private key.';

/** docs/product.md "End-to-end encryption", exact. */
export const UPLOAD_DONE = 'Encrypted and uploaded';
export const UPLOAD_FAILED = 'Failed';
export const E2EE_SAVED_TOAST = 'Encrypted message saved';

export const T = {
  // Recovery key, shown once.
  recoveryTitle: 'Save your recovery key',
  recoveryIntro:
    'Your end-to-end encrypted messages are locked with a private key that only your password opens. This recovery key is the only other way to open it, for example if you forget your password.',
  recoveryOnce: 'It is shown only this once. Afterword does not keep a copy and cannot show it to you again.',
  recoveryKeep: 'Store it offline or in a password manager, not next to your password.',
  recoveryCopy: 'Copy recovery key',
  recoveryCopied: 'Recovery key copied',
  recoveryDownload: 'Download recovery key',
  recoveryFileName: 'afterword-recovery-key.txt',
  recoverySaved: 'I have saved my recovery key',
  recoveryClose: 'Close',
  recoveryCloseHint: 'Tick the box once your recovery key is saved somewhere safe.',
  recoveryReplacesUnsaved: 'Your earlier recovery key was never marked as saved, so here is a new one. The earlier key no longer works: keep only this one.',
  recoverySaveFailed: 'Could not record that your recovery key is saved. Check your connection and press Close again.',
  recoveryReplaced: 'That recovery key was replaced by a newer one in another window. Only the newest recovery key works.',
  recoverySectionTitle: 'Recovery key',
  recoveryNoKeys: 'Your account has no encryption keys yet, so there is no recovery key. They are made when you sign in with your password.',
  recoverySavedOn: (when: string) => `You saved your recovery key on ${when}.`,
  recoveryNotSaved: 'Your recovery key is not marked as saved. Make a new one now and keep it safe.',
  recoveryMakeNewIntro:
    'A new recovery key replaces the one you have: the old one stops working at once. Your messages and files stay readable. Enter your password to make one.',
  recoveryPasswordNeeded: 'Enter your password',
  recoveryMakeNew: 'Make a new recovery key',
  recoveryMaking: 'Making a new recovery key…',
  recoveryMakeFailed: 'Could not make a new recovery key. Try again.',
  recoveryUntilSaved: 'Until you tick the box and close this, you get a new recovery key at each sign-in and the one before stops working.',

  // Unlocking after a reload.
  unlockTitle: 'Unlock encrypted messages',
  unlockIntro:
    'Your encryption keys stay in this tab’s memory, so they are locked again after a reload unless you choose to stay unlocked on this device. Enter your password to unlock them here. It is checked in your browser and is not sent anywhere.',
  stayUnlockedLabel: 'Stay unlocked on this device',
  stayUnlockedHint:
    'Only on a device that is yours alone. Until the time you choose, anyone using this browser can read your encrypted messages without your password. Lock now or sign out to end it sooner.',
  stayUnlockedFor: 'Stay unlocked for',
  lockNow: 'Lock now',
  locked: 'Encrypted messages locked on this device',
  unlockedUntil: 'Encrypted messages unlocked on this device until',
  unlockButton: 'Unlock',
  unlocking: 'Unlocking…',
  unlockWrongPassword: 'That password does not unlock your encryption keys. Use the password you sign in with.',
  unlockNoKeys: 'Your account has no encryption keys yet. They are created the next time you sign in with your email and password.',
  unlockFailed: 'Your keys could not be unlocked. Check your connection and try again.',
  unlocked: 'Encrypted messages unlocked',

  // Opening a message.
  decrypting: 'Decrypting the message',
  encryptedNote: 'End-to-end encrypted. It was decrypted in your browser; Afterword cannot read it.',
  notForYou: 'This message is encrypted for another key. It was not sealed for your account, so it cannot be opened here.',
  wrongKey:
    'This message is encrypted for another key. Your current keys cannot open it. This happens when an account’s keys were replaced after a password reset without the recovery key: what was sealed for the old keys cannot be read by anyone any more.',
  tampered: 'This message could not be decrypted: its encrypted data was changed or damaged. Nothing of it is shown.',
  unreadable: 'This message could not be decrypted: its encrypted data is not in a format this app can read.',
  encryptedExcerpt: 'End-to-end encrypted message',
  audioTitle: 'Voice recording',
  audioFailed: 'The encrypted recording could not be loaded or decrypted.',
  attachmentsTitle: 'Encrypted files',
  attachmentsLoading: 'Loading the files',
  attachmentsFailed: 'The list of files could not be loaded.',
  attachmentNoKey: 'No key for this file was sealed in the message, so it cannot be decrypted.',
  attachmentMissing: 'Not uploaded: the sender’s upload of this file did not complete.',
  attachmentDownload: 'Download',
  attachmentDecrypting: 'Decrypting…',
  attachmentFailed: 'This file could not be decrypted: it was changed, or its key does not match. Nothing was saved.',
  attachmentFetchFailed: 'This file could not be downloaded. Try again.',

  // Creating.
  senderNoKeys:
    'Your encryption keys are not set up yet, so this message cannot be encrypted. Sign out and sign in again with your email and password to create them, or send it without end-to-end encryption.',
  recipientNoKeys:
    'This recipient has no encryption keys yet (or no user has this ID), so the message cannot be encrypted for them. They get keys the next time they sign in with their password. Send it without end-to-end encryption, or try again later.',
  sealFailed: 'The message could not be encrypted in your browser. Nothing was sent.',
  e2eeOnForRecipient: 'On, because this recipient has encryption keys: only they and you will be able to read it.',
  e2eeUnavailable: {
    'recipient-has-no-keys':
      'Off: this recipient has no encryption keys yet (they get them the next time they sign in with their password), so it is stored the ordinary way.',
    'sender-has-no-keys': 'Off: your encryption keys are not set up yet (sign in again with your email and password to create them).',
  },
  attachmentsLegend: 'Encrypted files (optional)',
  attachmentsHint:
    'Each file is encrypted in your browser with its own key before it is uploaded. The keys travel inside the encrypted message, so the recipient can open the files; each key is also shown here for you.',
  attachmentsOnlyE2ee: 'Files can be attached to end-to-end encrypted messages. Tick “Use end-to-end encryption” to add them.',
  attachmentChoose: 'Choose files to encrypt',
  attachmentsHold: (minutes: number) =>
    `Files upload after the message is created, and a released message takes no more files. So a message with files is not released sooner than ${minutes} minutes after you create it, even if its date or a rule says so (you can still release it by hand once the files show “Encrypted and uploaded”).`,
  attachmentKeyLabel: 'Key',
  attachmentCopyKey: 'Copy key',
  attachmentKeyCopied: 'File key copied',
  attachmentRemove: 'Remove',
  attachmentReady: 'Encrypted, uploads when the message is created',
  attachmentUploading: 'Uploading…',
  attachmentTooLarge: (name: string, max: string) => `“${name}” is larger than ${max} and cannot be attached.`,
  attachmentTooMany: (max: number) => `A message can carry at most ${max} files.`,
  attachmentEncryptFailed: (name: string) => `“${name}” could not be read or encrypted in your browser.`,
  createdTitle: 'Your encrypted message was saved.',
  createdUploads: 'Its files:',
  retryUploads: 'Retry failed uploads',
  openMessage: 'Open the message',

  // Password and keys.
  passwordTitle: 'Password and encryption keys',
  passwordIntro:
    'Your password also unlocks your end-to-end encryption keys. Changing it re-locks the same keys under the new password in your browser, so every encrypted message stays readable. Your other sessions are signed out.',
  currentPassword: 'Current password',
  newPassword: 'New password',
  confirmPassword: 'Repeat the new password',
  passwordMismatch: 'The two new passwords are not the same',
  changePassword: 'Change password',
  changingPassword: 'Changing…',
  passwordChanged: 'Password changed',
  wrongCurrentPassword: 'The current password is not correct',
  passwordChangeFailed: 'Your password could not be changed. Please try again.',

  // Storage.
  storageTitle: 'Storage',
  storageUsage: (used: string, limit: string, plan: string) => `${used} of ${limit} used (${plan} plan)`,
  storageHint: 'Voice recordings and encrypted files count toward it.',
  storageFailed: 'Storage use could not be loaded.',

  // Forgot password.
  forgotLink: 'Forgot password?',
  forgotTitle: 'Forgot your password?',
  forgotIntro: 'Enter the email you signed up with. If an account exists for it, we send a link to choose a new password.',
  forgotSend: 'Send reset link',
  forgotSending: 'Sending…',
  forgotSent: 'If an account exists, we sent a link. Open it within 30 minutes; it works once.',
  forgotFailed: 'The link could not be requested. Please try again.',
  backToLogin: 'Back to sign in',

  // Reset password.
  resetTitle: 'Choose a new password',
  resetChecking: 'Checking your link',
  resetInvalid: 'This password reset link is invalid, has expired or was already used.',
  resetAskAgain: 'Ask for a new link',
  resetFor: (email: string) => `For ${email}.`,
  resetKeysIntro:
    'Your account has end-to-end encryption keys. To keep your encrypted messages and files readable, enter the recovery key you saved when your keys were created. It is checked in your browser and never sent.',
  recoveryKeyLabel: 'Recovery key',
  recoveryKeyHint: 'Paste it, or upload the afterword-recovery-key.txt file. Case, spaces and dashes do not matter.',
  recoveryKeyFile: 'Upload recovery key file (.txt)',
  recoveryKeyCheck: 'Check recovery key',
  recoveryKeyChecking: 'Checking…',
  recoveryKeyWrong: 'This recovery key does not open your keys. Check it against the one you saved.',
  recoveryKeyMalformed: (why: string) => `This is not a recovery key: ${why}.`,
  recoveryKeyAccepted: 'Recovery key accepted. Your encrypted messages and files stay readable with your new password.',
  noRecoveryKey: 'I don’t have my recovery key',
  haveRecoveryKey: 'I have my recovery key after all',
  noRecoveryWarningTitle: 'Without the recovery key, your encrypted items are lost',
  noRecoveryWarning:
    'Afterword never had your private key, so nobody — not even us — can restore it without your recovery key. If you continue, your account gets new encryption keys, and every end-to-end encrypted message, recording and file sealed for the old keys can never be opened again: the ones you received and the ones you sent. This is the same as losing the master password of a password manager. Messages that are not end-to-end encrypted are not affected.',
  noRecoveryConfirm: 'I understand that my end-to-end encrypted messages and files will be lost',
  noRecoveryMustConfirm: 'Tick the box to confirm, or go back and enter your recovery key.',
  resetSubmit: 'Set new password',
  resetSubmitting: 'Saving…',
  resetDone: 'Your password was changed.',
  resetSignIn: 'Sign in with your new password',
  resetFailed: 'Your password could not be reset. Please try again.',
} as const;
