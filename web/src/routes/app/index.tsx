import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Card } from '../../components/card';
import { ErrorState } from '../../components/error-state';
import { QueryState } from '../../components/query-state';
import { RecentActivity } from '../../features/activity/recent-activity';
import { PageHeader } from '../../features/app-pages/page-header';
import { CanarySummary } from '../../features/canary/canary-summary';
import { CANARY_STATUS_REFRESH_MS, RECENT_ACTIVITY_LIMIT } from '../../features/canary/queries';
import { SimulateMissPanel } from '../../features/canary/simulate-miss-panel';
import { useSimulatedMiss } from '../../features/canary/simulated-miss';
import { useCheckIn } from '../../features/canary/use-canary-actions';
import { LadderBanner } from '../../features/guardian/ladder-banner';
import { PasskeyCheckIn } from '../../features/passkeys/passkey-check-in';
import { MESSAGE_LIST_REFRESH_MS } from '../../features/messages/queries';
import { WaitingForYou } from '../../features/messages/waiting-for-you';
import { awaitReads } from '../../lib/route-data';
import { isTestMode } from '../../lib/test-mode';
import { trpc } from '../../lib/trpc';
import { useNow } from '../../lib/use-now';

export const Route = createFileRoute('/app/')({
  loader: ({ context: { trpc } }) => {
    // The ladder banner is shown only when a death report is open: it must not hold up the page.
    void trpc.guardian.ladder.prefetch();
    return awaitReads(trpc.canary.status.ensureData(), trpc.activity.recent.ensureData({ limit: RECENT_ACTIVITY_LIMIT }), trpc.message.inbox.ensureData());
  },
  component: DashboardPage,
});

function DashboardPage() {
  const nowMs = useNow();
  const [testMode] = useState(isTestMode);
  const status = trpc.canary.status.useQuery(undefined, { refetchInterval: CANARY_STATUS_REFRESH_MS });
  const activity = trpc.activity.recent.useQuery({ limit: RECENT_ACTIVITY_LIMIT }, { refetchInterval: CANARY_STATUS_REFRESH_MS });
  // Refreshed like the canary: a report can arrive while the page is open.
  const ladder = trpc.guardian.ladder.useQuery(undefined, { refetchInterval: CANARY_STATUS_REFRESH_MS });
  // What people left for this user: "Ann left you a message" comes before anything about their own canary.
  const inbox = trpc.message.inbox.useQuery(undefined, { refetchInterval: MESSAGE_LIST_REFRESH_MS });
  const simulatedAt = useSimulatedMiss();
  const { checkIn, pending } = useCheckIn();

  return (
    <>
      <PageHeader title="Dashboard">
        <p>Your check-ins and what has happened recently.</p>
      </PageHeader>
      {/* A failed ladder read could hide an open death report: it says so instead of showing nothing. */}
      {ladder.isError ? <ErrorState title="Whether a death report is open could not be checked." read={ladder} /> : <LadderBanner ladder={ladder.data} />}
      {inbox.isError ? <ErrorState title="Your inbox could not be checked." read={inbox} /> : <WaitingForYou messages={inbox.data ?? []} />}
      <div className="dashboard-grid">
        <Card title="Canary Summary">
          <QueryState query={status} loading="Loading your canary" failed="Your canary could not be loaded." lines={4}>
            {(data) => (
              <CanarySummary
                status={data}
                hasReceived={(inbox.data?.length ?? 0) > 0}
                nowMs={nowMs}
                simulatedMiss={simulatedAt !== null}
                onHeartbeat={checkIn}
                heartbeatPending={pending}
              />
            )}
          </QueryState>
          <PasskeyCheckIn />
          {testMode ? <SimulateMissPanel /> : null}
        </Card>
        <Card title="Recent Activity">
          <QueryState query={activity} loading="Loading recent activity" failed="Recent activity could not be loaded.">
            {(items) => <RecentActivity items={items} nowMs={nowMs} />}
          </QueryState>
        </Card>
      </div>
      <p className="section">
        New here? <Link to="/app/help">Read how Afterword works</Link>. Messages other people have left for you are in your <Link to="/app/inbox">Inbox</Link>.
      </p>
    </>
  );
}
