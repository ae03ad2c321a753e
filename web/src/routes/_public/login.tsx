import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { LoginForm } from '../../features/auth/login-form';
import { e2eeStore } from '../../features/e2ee/key-store';
import { keysApiFromClient, setUpKeysAfterSignIn } from '../../features/e2ee/keys-api';
import { clearLocationFragment, parseOAuthFragment } from '../../lib/oauth-fragment';
import { setToken } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';

export const Route = createFileRoute('/_public/login')({
  component: LoginPage,
});

function LoginPage() {
  usePageTitle('Sign in');
  const navigate = useNavigate();
  const { trpcClient } = Route.useRouteContext();
  // Read once on mount: the Google callback hands back a token or an error in the fragment.
  const [fragment] = useState(() => parseOAuthFragment(window.location.hash));

  useEffect(() => {
    if (!fragment) return;
    clearLocationFragment();
    if (fragment.kind === 'token') {
      // Another account may have been unlocked in this tab before.
      e2eeStore.reset();
      setToken(fragment.accessToken);
      void navigate({ to: '/app', replace: true });
    }
  }, [fragment, navigate]);

  return (
    <div className="auth-page">
      <h1>Sign in</h1>
      <p className="muted">Welcome back. Sign in to check in and manage your messages.</p>
      <LoginForm
        login={(input) => trpcClient.auth.login.mutate(input)}
        afterSignIn={async (password) => {
          await setUpKeysAfterSignIn(keysApiFromClient(trpcClient), e2eeStore, password);
        }}
        onSignedIn={() => void navigate({ to: '/app' })}
        initialError={fragment?.kind === 'error' ? fragment.message : null}
      />
    </div>
  );
}
