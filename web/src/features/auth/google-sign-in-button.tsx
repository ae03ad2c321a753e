import { Button } from '../../components/button';
import { GOOGLE_SIGNIN_PATH } from '../../lib/feature-flags';

/** A full-page navigation: the server starts the OAuth flow and redirects back to /login#…. */
export function GoogleSignInButton() {
  return (
    <Button variant="secondary" className="button--block" onClick={() => window.location.assign(GOOGLE_SIGNIN_PATH)}>
      Login with Google
    </Button>
  );
}
