import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { Toaster } from '../components/toast';
import { NotFoundContent } from '../features/site/not-found';
import { PublicLayout } from '../features/site/public-layout';
import { useSignedIn } from '../lib/use-hydrated';
import { useE2eeState } from '../features/e2ee/key-store';
import { useWelcomePending } from '../features/shell/welcome-pending';
import type { RouterContext } from '../router-context';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFound,
});

/** Its code (the dialog, the keys API) is fetched only when there is a recovery key to show, not by every visitor. */
const ConnectedRecoveryKeyGate = lazy(() => import('../features/e2ee/recovery-key-modal').then((m) => ({ default: m.ConnectedRecoveryKeyGate })));

function RootLayout() {
  const held = useWelcomePending();
  const { pendingRecovery } = useE2eeState();
  return (
    <>
      <Outlet />
      {/* The welcome says what Afterword does before a new account is asked to save its recovery key. */}
      {pendingRecovery ? (
        <Suspense fallback={null}>
          <ConnectedRecoveryKeyGate held={held} />
        </Suspense>
      ) : null}
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
