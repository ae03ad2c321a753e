import { Button } from '../../components/button';
import { startGoogleSignIn } from '../../lib/oauth-fragment';
import { useHydrated } from '../../lib/use-hydrated';

/**
 * A full-page navigation: the server starts the OAuth flow and redirects back to /login#…. The state
 * kept for that hand-back is made on the click (lib/oauth-fragment.ts), so on prerendered /login
 * (src/prerender.tsx) the button is disabled until that code has hydrated it.
 */
export function GoogleSignInButton() {
  const hydrated = useHydrated();
  return (
    <Button variant="secondary" className="button--block" onClick={() => startGoogleSignIn()} disabled={!hydrated}>
      Login with Google
    </Button>
  );
}
