import { createFileRoute } from '@tanstack/react-router';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../features/app-pages/page-header';

export const Route = createFileRoute('/app/legacy-graph')({
  component: LegacyGraphPage,
});

function LegacyGraphPage() {
  return (
    <>
      <PageHeader title="Legacy graph" />
      <EmptyState title="Legacy graph view temporarily disabled." />
    </>
  );
}
