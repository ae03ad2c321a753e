/*
 * The email someone just signed up with, handed from /signup to /login so they do not type it twice.
 * It goes through this tab's sessionStorage rather than the URL, so the address stays out of history,
 * logs and referrers. It is removed from storage the moment the login form reads it (a reload then
 * starts empty); the value read is kept in memory until the form has mounted, because StrictMode calls
 * a state initialiser twice and the second call must see the same address.
 */
const KEY = 'afterword.signedUpEmail';

let taken: string | null = null;

export function keepSignedUpEmail(email: string): void {
  try {
    sessionStorage.setItem(KEY, email);
  } catch {
    // storage disabled: the login form simply starts empty
  }
}

/** For the login form's state initialiser: the address just signed up with, or ''. */
export function takeSignedUpEmail(): string {
  try {
    const stored = sessionStorage.getItem(KEY);
    if (stored !== null) {
      sessionStorage.removeItem(KEY);
      taken = stored;
    }
  } catch {
    // storage disabled: nothing was kept
  }
  return taken ?? '';
}

/** Once the form has mounted: a later visit to /login in this tab starts empty. */
export function releaseSignedUpEmail(): void {
  taken = null;
}
