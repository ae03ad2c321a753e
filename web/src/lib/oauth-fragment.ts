/**
 * The server's Google callback lands on `/login#access_token=…&token_type=bearer&expires_in=…`
 * or `/login#error=<message>`. A fragment never reaches server logs, which is why it is used.
 */
export type OAuthFragment = { kind: 'token'; accessToken: string } | { kind: 'error'; message: string } | null;

export function parseOAuthFragment(hash: string): OAuthFragment {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const accessToken = params.get('access_token');
  if (accessToken) return { kind: 'token', accessToken };
  const error = params.get('error');
  if (error !== null) return { kind: 'error', message: error || 'Google sign-in failed.' };
  return null;
}

/** Removes the fragment without adding a history entry, so the token is not left in the address bar. */
export function clearLocationFragment(): void {
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', pathname + search);
}
