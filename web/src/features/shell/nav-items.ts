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

/** Not SPEC entries: pages that exist only while the app runs locally, listed apart from the ones above. */
export const LOCAL_ITEMS = [{ label: 'Outbox', to: '/app/outbox' }] as const;
