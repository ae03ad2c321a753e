import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { Toaster } from '../components/toast';
import { NotFoundContent } from '../features/site/not-found';
import { PublicLayout } from '../features/site/public-layout';
import { useSignedIn } from '../lib/use-hydrated';
import { useE2eeState } from '../features/e2ee/key-store';
import { loadedRecoveryGate, loadRecoveryGate } from '../features/e2ee/recovery-gate-loader';
import { useWelcomePending } from '../features/shell/welcome-pending';
import type { RouterContext } from '../router-context';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFound,
});

/** Its code is fetched only when there is a recovery key to show (features/e2ee/recovery-gate-loader.ts). */
const LazyRecoveryKeyGate = lazy(() => loadRecoveryGate().then((Gate) => ({ default: Gate })));

/** Already fetched (a sign-in fetches it first): rendered with the page; otherwise fetched now. */
function RecoveryKeyGate({ held }: { held: boolean }) {
  const Gate = loadedRecoveryGate();
  if (Gate) return <Gate held={held} />;
  return (
    <Suspense fallback={null}>
      <LazyRecoveryKeyGate held={held} />
    </Suspense>
  );
}

function RootLayout() {
  const held = useWelcomePending();
  const { pendingRecovery } = useE2eeState();
  return (
    <>
      <Outlet />
      {/* The welcome says what Afterword does before a new account is asked to save its recovery key. */}
      {pendingRecovery ? <RecoveryKeyGate held={held} /> : null}
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
