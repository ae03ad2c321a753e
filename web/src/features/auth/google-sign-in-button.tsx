import { Button } from '../../components/button';
import { startGoogleSignIn } from '../../lib/oauth-fragment';

/**
 * A full-page navigation: the server starts the OAuth flow and redirects back to /login#…. The state
 * kept for that hand-back is made on the click (lib/oauth-fragment.ts).
 */
export function GoogleSignInButton() {
  return (
    <Button variant="secondary" className="button--block" onClick={() => startGoogleSignIn()}>
      Login with Google
    </Button>
  );
}
