/**
 * Build-time flag (docs/product.md "Accounts and sign-in"): the Google option exists only when it is exactly 'true'.
 */
export function isGoogleSignInEnabled(): boolean {
  return import.meta.env.VITE_GOOGLE_SIGNIN === 'true';
}

/** The browser goes to the server, which redirects to Google (a navigation, not an API call). */
export const GOOGLE_SIGNIN_PATH = '/api/auth/google';
