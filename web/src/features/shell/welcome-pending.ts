import { useRouterState } from '@tanstack/react-router';
import { useSyncExternalStore } from 'react';
import { hasSeenOnboarding, subscribeOnboarding } from '../../lib/session';

// Apart from the welcome dialog (welcome-modal.tsx): the root layout asks this on every page, and the
// dialog's code is the app shell's, not every visitor's.

/** True while a newcomer's welcome is showing (or about to, on an /app page): what comes after it waits. */
export function useWelcomePending(): boolean {
  const inApp = useRouterState({ select: (s) => s.location.pathname.startsWith('/app') });
  // The server snapshot (prerendered public pages, web/scripts/prerender.mjs) has no storage: seen.
  const seen = useSyncExternalStore(subscribeOnboarding, hasSeenOnboarding, () => true);
  return inApp && !seen;
}
