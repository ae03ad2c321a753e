import { createFileRoute, Link } from '@tanstack/react-router';
import { EmptyState } from '../../components/empty-state';
import { QueryState } from '../../components/query-state';
import { PageHeader } from '../../features/app-pages/page-header';
import { RehearsalTimeline } from '../../features/rehearsal/rehearsal-timeline';
import { awaitReads } from '../../lib/route-data';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';
import { useNow } from '../../lib/use-now';

/** rehearsal/{id}: a rehearsal's report — what would happen if the owner stopped checking in, and what reached them. */
export const Route = createFileRoute('/app/rehearsal/$id')({
  loader: ({ context: { trpc }, params: { id } }) => awaitReads(trpc.rehearsal.get.ensureData({ id })),
  component: RehearsalPage,
});

function RehearsalPage() {
  const { id } = Route.useParams();
  const nowMs = useNow();
  const query = trpc.rehearsal.get.useQuery({ id });
  return (
    <>
      <PageHeader title="Rehearsal: what would happen">
        <p>
          <Link to="/app/canary-status">Back to Canary Status</Link>
        </p>
      </PageHeader>
      {query.isError && [404, 422].includes(readApiError(query.error).status ?? 0) ? (
        <EmptyState title="This rehearsal could not be found." />
      ) : (
        <QueryState query={query} loading="Loading the rehearsal" failed="This rehearsal could not be loaded." lines={6}>
          {(report) => <RehearsalTimeline report={report} nowMs={nowMs} />}
        </QueryState>
      )}
    </>
  );
}
