import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Card } from '../../components/card';
import { RecentActivity } from '../../features/activity/recent-activity';
import { PageHeader } from '../../features/app-pages/page-header';
import { CanarySummary } from '../../features/canary/canary-summary';
import { CANARY_STATUS_REFRESH_MS, RECENT_ACTIVITY_LIMIT } from '../../features/canary/queries';
import { SimulateMissPanel } from '../../features/canary/simulate-miss-panel';
import { useSimulatedMiss } from '../../features/canary/simulated-miss';
import { useCheckIn } from '../../features/canary/use-canary-actions';
import { LadderBanner } from '../../features/guardian/ladder-banner';
import { awaitReads } from '../../lib/route-data';
import { isTestMode } from '../../lib/test-mode';
import { trpc } from '../../lib/trpc';
import { useNow } from '../../lib/use-now';

export const Route = createFileRoute('/app/')({
  loader: ({ context: { trpc } }) => {
    // The ladder banner is shown only when a death report is open: it must not hold up the page.
    void trpc.guardian.ladder.prefetch();
    return awaitReads(trpc.canary.status.ensureData(), trpc.activity.recent.ensureData({ limit: RECENT_ACTIVITY_LIMIT }));
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
  const simulatedAt = useSimulatedMiss();
  const { checkIn, pending } = useCheckIn();

  return (
    <>
      <PageHeader title="Dashboard">
        <p>Your check-ins and what has happened recently.</p>
      </PageHeader>
      <LadderBanner ladder={ladder.data} />
      <div className="dashboard-grid">
        <Card title="Canary Summary">
          <CanarySummary
            status={status.data}
            loading={status.isPending}
            failed={status.isError}
            nowMs={nowMs}
            simulatedMiss={simulatedAt !== null}
            onHeartbeat={checkIn}
            heartbeatPending={pending}
          />
          {testMode ? <SimulateMissPanel /> : null}
        </Card>
        <Card title="Recent Activity">
          <RecentActivity items={activity.data} loading={activity.isPending} failed={activity.isError} nowMs={nowMs} />
        </Card>
      </div>
      <p className="section">
        New here? <Link to="/app/help">Read how Afterword works</Link>. Messages other people have left for you are in your <Link to="/app/inbox">Inbox</Link>.
      </p>
    </>
  );
}
