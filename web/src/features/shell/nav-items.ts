/** SPEC section 2, App shell: exactly these sidebar entries, in this order. */
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
 * Not a SPEC entry: what other people left for you, with its unread count. Listed below the nine SPEC
 * entries, apart from them, so those stay exactly as listed (docs/decisions/recipient-view.md).
 */
export const RECEIVED_ITEMS = [{ label: 'Inbox', to: '/app/inbox' }] as const;

/** Not SPEC entries: pages that exist only while the app runs locally, listed apart from the ones above. */
export const LOCAL_ITEMS = [{ label: 'Outbox', to: '/app/outbox' }] as const;
