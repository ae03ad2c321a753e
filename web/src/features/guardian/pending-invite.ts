/**
 * An invitation opened while signed out: the token waits in sessionStorage (this tab only) so that,
 * once signed in, the app brings the person back to answer it. Taken once, then forgotten.
 */
export const PENDING_INVITE_KEY = 'pendingGuardianInvite';

export function rememberPendingInvite(token: string): void {
  try {
    sessionStorage.setItem(PENDING_INVITE_KEY, token);
  } catch {
    // storage blocked: the link in the email still works after signing in
  }
}

export function takePendingInvite(): string | null {
  try {
    const token = sessionStorage.getItem(PENDING_INVITE_KEY);
    sessionStorage.removeItem(PENDING_INVITE_KEY);
    return token || null;
  } catch {
    return null;
  }
}
