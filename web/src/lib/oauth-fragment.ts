/**
 * Google sign-in hands its result to the login page in the URL fragment: the server's callback lands
 * on `/login#access_token=…&token_type=bearer&expires_in=…&state=…` or `/login#error=<message>&state=…`.
 * A fragment never reaches server logs, which is why it is used.
 *
 * A fragment alone proves nothing about who asked for it: anyone can send a link
 * `/login#access_token=<their own token>`, and a page that took it would sign the visitor into the
 * sender's account, where everything the visitor then writes lands (login CSRF). So before it leaves
 * for Google the page keeps a random state in this tab's sessionStorage and sends it along
 * (`client_state`); the server hands it back in the fragment, and the page takes a hand-back only when
 * Google sign-in is on in this build and the state is the one it kept. The kept state is spent by the
 * first hand-back that arrives.
 */
import { bytesToBase64url, randomBytes } from '../crypto';
import { GOOGLE_SIGNIN_PATH } from './feature-flags';

/** sessionStorage key of the state kept while the browser is away at Google. */
export const GOOGLE_STATE_KEY = 'googleSignInState';

/** What the login page says when a hand-back is not the one it asked for. */
export const HAND_BACK_REFUSED = 'Google sign-in could not be completed. Please try again.';

export type OAuthFragment = { kind: 'token'; accessToken: string; state: string | null } | { kind: 'error'; message: string; state: string | null } | null;

export function parseOAuthFragment(hash: string): OAuthFragment {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const state = params.get('state');
  const accessToken = params.get('access_token');
  if (accessToken) return { kind: 'token', accessToken, state };
  const error = params.get('error');
  if (error !== null) return { kind: 'error', message: error || 'Google sign-in failed.', state };
  return null;
}

/**
 * What the login page does with a fragment: sign in with the token, show the error, refuse it (a
 * hand-back it did not ask for: shown as a calm error), ignore it (Google sign-in is off in this
 * build: nothing to show), or nothing at all (no hand-back in the URL).
 */
export type HandBack = { kind: 'token'; accessToken: string } | { kind: 'error'; message: string } | { kind: 'refused' } | { kind: 'ignored' } | null;

export function checkHandBack(fragment: OAuthFragment, { googleEnabled, keptState }: { googleEnabled: boolean; keptState: string | null }): HandBack {
  if (!fragment) return null;
  if (!googleEnabled) return { kind: 'ignored' };
  if (!keptState || fragment.state !== keptState) return { kind: 'refused' };
  return fragment.kind === 'token' ? { kind: 'token', accessToken: fragment.accessToken } : { kind: 'error', message: fragment.message };
}

/** 32 random bytes, base64url: 43 characters that travel in a URL unescaped (contracts: ZGoogleSignInStart). */
export function newClientState(): string {
  return bytesToBase64url(randomBytes(32));
}

/** Keeps a fresh state in `storage` and sends the browser to the server, which redirects to Google. */
export function startGoogleSignIn({
  storage = sessionStorage,
  go = (url: string) => window.location.assign(url),
}: {
  storage?: Storage;
  go?: (url: string) => void;
} = {}): void {
  const state = newClientState();
  storage.setItem(GOOGLE_STATE_KEY, state);
  go(`${GOOGLE_SIGNIN_PATH}?client_state=${state}`);
}

/** The state this tab kept for its Google sign-in, if any (read without spending it). */
export function keptClientState(storage?: Storage): string | null {
  try {
    return (storage ?? sessionStorage).getItem(GOOGLE_STATE_KEY);
  } catch {
    // Storage blocked by the browser: nothing was kept, so no hand-back is taken.
    return null;
  }
}

/** Spends the kept state: one sign-in, one hand-back. */
export function spendClientState(storage: Storage = sessionStorage): void {
  storage.removeItem(GOOGLE_STATE_KEY);
}

/** Removes the fragment without adding a history entry, so the token is not left in the address bar. */
export function clearLocationFragment(): void {
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', pathname + search);
}
