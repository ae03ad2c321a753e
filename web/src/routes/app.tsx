import { createFileRoute, Outlet, redirect, useNavigate } from '@tanstack/react-router';
import { takePendingContact } from '../features/contacts/pending-contact';
import { deviceUnlock } from '../features/e2ee/device-unlock';
import { messageDrafts } from '../features/messages/message-draft';
import { e2eeStore } from '../features/e2ee/key-store';
import { useStayUnlocked } from '../features/e2ee/stay-unlocked';
import { takePendingInvite } from '../features/guardian/pending-invite';
import { takePendingClaim } from '../features/vault/pending-claim';
import { useCanaryCheckInAlerts } from '../features/check-in-alerts/use-canary-check-in-alerts';
import { MESSAGE_LIST_REFRESH_MS } from '../features/messages/queries';
import { AppShell } from '../features/shell/app-shell';
import { NotFoundContent } from '../features/site/not-found';
import { setDisplayTimeZone } from '../lib/format-time';
import { rememberReturnTo, takeReturnTo } from '../lib/return-to';
import { clearToken, getToken } from '../lib/session';
import { trpc } from '../lib/trpc';

export const Route = createFileRoute('/app')({
  // docs/product.md "Accounts and sign-in": without a stored token, /app redirects to /login.
  beforeLoad: ({ location }) => {
    if (!getToken()) {
      // Back to this page after sign-in (a release email's link, a bookmark): lib/return-to.ts.
      rememberReturnTo(location.href);
      throw redirect({ to: '/login' });
    }
    // A guardian invitation opened while signed out: back to it once, now that there is a session.
    const invite = takePendingInvite();
    if (invite) throw redirect({ to: '/guardian/accept/$token', params: { token: invite } });
    // Likewise a contact invitation.
    const contact = takePendingContact();
    if (contact) throw redirect({ to: '/contacts/accept/$token', params: { token: contact } });
    // Likewise a vault claim link (a QR code) opened while signed out.
    const claim = takePendingClaim();
    if (claim) throw redirect({ to: '/claim/$token', params: { token: claim } });
    // Likewise any app page opened while signed out.
    const back = takeReturnTo();
    if (back && back !== location.href) throw redirect({ href: back });
  },
  // Runs only after beforeLoad let the visit through. What every /app page shows around its content;
  // started together with the page's own reads, so they share one batched request.
  loader: ({ context: { trpc } }) => {
    void trpc.auth.me.prefetch();
    void trpc.outbox.status.prefetch(undefined, { staleTime: Infinity });
    void trpc.canary.status.prefetch();
    void trpc.message.unreadCount.prefetch();
    void trpc.profile.get.prefetch();
  },
  component: AppLayout,
  // An unknown /app address stays inside the shell, with the sidebar to go on from.
  notFoundComponent: () => <NotFoundContent signedIn />,
});

function AppLayout() {
  const navigate = useNavigate();
  const { queryClient, trpcClient } = Route.useRouteContext();
  const me = trpc.auth.me.useQuery();
  // Every time on every page is shown in the profile's zone (the browser's until it is read).
  setDisplayTimeZone(trpc.profile.get.useQuery().data?.time_zone);
  // The outbox page exists only while the app runs locally; the server says whether it does.
  const outbox = trpc.outbox.status.useQuery(undefined, { staleTime: Infinity });
  // The Inbox entry's count: re-read like the Inbox itself; opening a message refreshes it at once.
  const unread = trpc.message.unreadCount.useQuery(undefined, { refetchInterval: MESSAGE_LIST_REFRESH_MS });
  // docs/product.md "Canaries and check-ins": browser notifications and the missed-title warning on every /app page.
  useCanaryCheckInAlerts();
  // A key kept on this device ("stay unlocked") comes back after a reload, until its time.
  useStayUnlocked(me.data?.id);

  async function logout() {
    // Revoke server-side when we can; signing out locally must work even if the call fails.
    await trpcClient.auth.logout.mutate().catch(() => undefined);
    clearToken();
    e2eeStore.reset();
    await deviceUnlock.forget().catch(() => undefined);
    // Signing out leaves nothing of the account on a shared computer, a half-written message included. (A
    // session that merely expired keeps it: the draft comes back after signing in again.)
    await messageDrafts.drop().catch(() => undefined);
    queryClient.clear();
    await navigate({ to: '/login' });
  }

  return (
    <AppShell email={me.data?.email} onLogout={() => void logout()} outboxEnabled={outbox.data?.enabled === true} unread={unread.data?.unread}>
      <Outlet />
    </AppShell>
  );
}
