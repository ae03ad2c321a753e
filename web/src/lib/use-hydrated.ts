import { useSyncExternalStore } from 'react';
import { getToken } from './session';

const noSubscription = () => () => undefined;

/**
 * False while React hydrates a page prerendered at build time (web/scripts/prerender.mjs), true from the
 * render right after, and true at once when a page is rendered in the browser without prerendered markup.
 * What the server cannot know (the session, browser features) waits for it, so the first client render
 * matches the prerendered HTML (react-dom's hydration keeps the server's markup and never patches it).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * Whether this browser holds a session, read on every render as before (lib/session.ts has no change
 * events); false while hydrating prerendered markup, which is built without one.
 */
export function useSignedIn(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => getToken() !== null,
    () => false,
  );
}
