/*
 * The email someone just signed up with, handed from /signup to /login so they do not type it twice.
 * It goes through this tab's sessionStorage rather than the URL, so the address stays out of history,
 * logs and referrers; it is forgotten once the form has it.
 */
const KEY = 'afterword.signedUpEmail';

export function keepSignedUpEmail(email: string): void {
  try {
    sessionStorage.setItem(KEY, email);
  } catch {
    // storage disabled: the login form simply starts empty
  }
}

/** Read in a state initialiser (StrictMode may call it twice), so it does not delete. */
export function peekSignedUpEmail(): string {
  try {
    return sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

/** Once the form has it: a later visit to /login starts empty. */
export function forgetSignedUpEmail(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
