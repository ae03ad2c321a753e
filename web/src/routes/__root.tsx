import { createRootRouteWithContext, Link, Outlet } from '@tanstack/react-router';
import { Toaster } from '../components/toast';
import { RecoveryKeyGate } from '../features/e2ee/recovery-key-modal';
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
      <RecoveryKeyGate held={useWelcomePending()} />
      <Toaster />
    </>
  );
}

function NotFound() {
  return (
    <main id="main" className="public-main narrow">
      <h1>Page not found</h1>
      <p>There is nothing at this address.</p>
      <Link to="/">Back to home</Link>
    </main>
  );
}
