/**
 * A claim link opened while signed out: its token waits in sessionStorage (this tab only) so that, once
 * signed in, the app brings the person back to it (routes/app.tsx). Taken once, then forgotten.
 */
export const PENDING_CLAIM_KEY = 'pendingVaultClaim';

export function rememberPendingClaim(token: string): void {
  try {
    sessionStorage.setItem(PENDING_CLAIM_KEY, token);
  } catch {
    // storage blocked: the link (or its QR code) still works after signing in
  }
}

export function takePendingClaim(): string | null {
  try {
    const token = sessionStorage.getItem(PENDING_CLAIM_KEY);
    sessionStorage.removeItem(PENDING_CLAIM_KEY);
    return token || null;
  } catch {
    return null;
  }
}
