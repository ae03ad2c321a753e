import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { Toaster } from '../components/toast';
import { NotFoundContent } from '../features/site/not-found';
import { PublicLayout } from '../features/site/public-layout';
import { useSignedIn } from '../lib/use-hydrated';
import { ConnectedRecoveryKeyGate } from '../features/e2ee/recovery-key-modal';
import { useWelcomePending } from '../features/shell/welcome-modal';
import type { RouterContext } from '../router-context';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFound,
});

function RootLayout() {
  return (
    <>
      <Outlet />
      {/* The welcome says what Afterword does before a new account is asked to save its recovery key. */}
      <ConnectedRecoveryKeyGate held={useWelcomePending()} />
      <Toaster />
    </>
  );
}

/** An unknown address outside /app: the public frame (an /app address has its own, in the shell). */
function NotFound() {
  const signedIn = useSignedIn();
  return (
    <PublicLayout>
      <NotFoundContent signedIn={signedIn} />
    </PublicLayout>
  );
}
