import { pendingLink } from './pending-link';

/**
 * An /app address opened while signed out — a release email's link to a message, a bookmarked page —
 * waits here while the person signs in, and the app takes them back to it (routes/app.tsx). Only an
 * address inside the app is kept: never another origin, never a protocol-relative `//host`.
 */
const RETURN_TO_KEY = 'pendingReturnTo';
const link = pendingLink(RETURN_TO_KEY);

/** Whether `href` (path, search and hash of this origin) is an app page worth returning to. */
export const isReturnPath = (href: string) => /^\/app\/[^/\\]/.test(href) && !href.startsWith('//');

export function rememberReturnTo(href: string): void {
  if (isReturnPath(href)) link.remember(href);
}

/** The kept address, once; null when there is none (or it is not an app page). */
export function takeReturnTo(): string | null {
  const href = link.take();
  return href && isReturnPath(href) ? href : null;
}
