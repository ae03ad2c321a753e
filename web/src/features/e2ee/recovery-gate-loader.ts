import type { ComponentType } from 'react';

type RecoveryKeyGate = ComponentType<{ held: boolean }>;

let loaded: RecoveryKeyGate | null = null;

/**
 * The recovery-key dialog's code (the dialog and the keys API) is its own chunk, fetched only when there is a key
 * to show rather than by every visitor. A sign-in or a reset that may show one fetches it first
 * (routes/_public/login.tsx, reset-password.tsx), so the dialog opens with the page the person lands on: fetched
 * only once the key was there, it came a moment after the page and could take a click meant for the page.
 */
export async function loadRecoveryGate(): Promise<RecoveryKeyGate> {
  loaded ??= (await import('./recovery-key-modal')).ConnectedRecoveryKeyGate;
  return loaded;
}

/** The dialog's component once fetched (null before): rendered at once, with no loading step. */
export const loadedRecoveryGate = () => loaded;
