import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { LoginForm } from '../../features/auth/login-form';
import { PasskeySignIn } from '../../features/passkeys/passkey-sign-in';
import { e2eeStore } from '../../features/e2ee/key-store';
import { keysApiFromClient, setUpKeysAfterSignIn } from '../../features/e2ee/keys-api';
import { loadRecoveryGate } from '../../features/e2ee/recovery-gate-loader';
import { isGoogleSignInEnabled } from '../../lib/feature-flags';
import { HAND_BACK_REFUSED, checkHandBack, clearLocationFragment, keptClientState, parseOAuthFragment, spendClientState } from '../../lib/oauth-fragment';
import { setToken } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';

export const Route = createFileRoute('/_public/login')({
  component: LoginPage,
});

function LoginPage() {
  usePageTitle('Sign in');
  const navigate = useNavigate();
  const { trpcClient } = Route.useRouteContext();
  // Read once on mount: the Google callback hands back a token or an error in the fragment, taken only
  // when this tab started that sign-in (lib/oauth-fragment.ts). Reading does not spend the kept state,
  // so StrictMode's second render reads the same answer; the effect spends it.
  // Prerendering (web/scripts/prerender.mjs) has no location: nothing handed back.
  const [handBack] = useState(() =>
    typeof window === 'undefined'
      ? null
      : checkHandBack(parseOAuthFragment(window.location.hash), { googleEnabled: isGoogleSignInEnabled(), keptState: keptClientState() }),
  );

  useEffect(() => {
    if (!handBack) return;
    spendClientState();
    clearLocationFragment();
    if (handBack.kind === 'token') {
      // Another account may have been unlocked in this tab before.
      e2eeStore.reset();
      setToken(handBack.accessToken);
      void navigate({ to: '/app', replace: true });
    }
  }, [handBack, navigate]);

  return (
    <div className="auth-page">
      <h1>Sign in</h1>
      <p className="muted">Welcome back. Sign in to check in and manage your messages.</p>
      <LoginForm
        login={(input) => trpcClient.auth.login.mutate(input)}
        afterSignIn={async (password) => {
          // The recovery key this may show opens with the next page, not a moment after it.
          await loadRecoveryGate();
          await setUpKeysAfterSignIn(keysApiFromClient(trpcClient), e2eeStore, password);
        }}
        onSignedIn={() => void navigate({ to: '/app' })}
        initialError={handBack?.kind === 'error' ? handBack.message : handBack?.kind === 'refused' ? HAND_BACK_REFUSED : null}
      />
      <PasskeySignIn
        start={() => trpcClient.passkeys.signInOptions.mutate()}
        finish={(answer) => trpcClient.passkeys.signIn.mutate(answer)}
        onSignedIn={(session) => {
          // Another account may have been unlocked in this tab before; keys unlock with the password when needed.
          e2eeStore.reset();
          setToken(session.access_token);
          void navigate({ to: '/app' });
        }}
      />
    </div>
  );
}
