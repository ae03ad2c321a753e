/** docs/product.md "The app shell and navigation": exactly these sidebar entries, in this order. */
export const SIDEBAR_ITEMS = [
  { label: 'Dashboard', to: '/app' },
  { label: 'My Messages', to: '/app/messages' },
  { label: 'Create Message', to: '/app/create' },
  { label: 'Voice Trainer', to: '/app/voice-legacy' },
  { label: 'Voice Chat', to: '/app/voice-chat' },
  { label: 'Import Chat', to: '/app/import' },
  { label: 'Canary Status', to: '/app/canary-status' },
  { label: 'Data Consents', to: '/app/consent' },
  { label: 'Help', to: '/app/help' },
] as const;

/**
 * Not one of the main entries: what other people left for you, with its unread count. Listed below the nine
 * main entries, apart from them, so those stay exactly as listed (docs/decisions/recipient-view.md).
 */
export const RECEIVED_ITEMS = [{ label: 'Inbox', to: '/app/inbox' }] as const;

/**
 * Not main entries: every other page of the app, so nothing is found only by typing its address. Listed
 * below the nine main entries and the Inbox, in a group of their own ("More"), so those stay exactly as
 * listed; on a phone the whole sidebar opens from the Menu button.
 */
export const MORE_ITEMS = [
  { label: 'Vault', to: '/app/vault' },
  { label: 'Guardians', to: '/app/guardian' },
  { label: 'Contacts', to: '/app/contacts' },
  { label: 'Capsules', to: '/app/capsules' },
  { label: 'Memorials', to: '/app/memorial' },
  { label: 'Remembrances', to: '/app/remembrances' },
  { label: 'Notifications', to: '/app/notifications' },
  { label: 'Billing', to: '/app/billing' },
  { label: 'Developer', to: '/app/developer' },
] as const;

/** Not main entries: pages that exist only while the app runs locally, listed apart from the ones above. */
export const LOCAL_ITEMS = [{ label: 'Outbox', to: '/app/outbox' }] as const;
