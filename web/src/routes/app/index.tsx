import { createFileRoute, Link } from '@tanstack/react-router';
import { Card } from '../../components/card';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../features/app-pages/page-header';

export const Route = createFileRoute('/app/')({
  component: DashboardPage,
});

function DashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard">
        <p>Your check-ins and what has happened recently.</p>
      </PageHeader>
      <div className="dashboard-grid">
        <Card title="Canary Summary">
          <p>You have no canary yet. A canary is the regular check-in that keeps your messages held back.</p>
          <p className="muted">Checking in, and the countdown to your next deadline, arrive with the canary engine, which is being built.</p>
        </Card>
        <Card title="Recent Activity">
          <EmptyState title="No activity yet.">
            <p>Check-ins, messages you create and deliveries will be listed here.</p>
          </EmptyState>
        </Card>
      </div>
      <p className="section">New here? <Link to="/app/help">Read how Afterword works</Link>.</p>
    </>
  );
}
