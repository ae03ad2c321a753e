import { createFileRoute } from '@tanstack/react-router';
import { Card } from '../../components/card';
import { EmptyState } from '../../components/empty-state';
import { QueryState } from '../../components/query-state';
import { PageHeader } from '../../features/app-pages/page-header';
import { ReviewQueue } from '../../features/community/review-queue';
import { awaitReads } from '../../lib/route-data';
import { trpc } from '../../lib/trpc';

/** The moderators' page (MODERATOR_EMAILS): not in the sidebar, linked from Memorials for moderators. */
export const Route = createFileRoute('/app/moderation')({
  loader: ({ context: { trpc } }) => awaitReads(trpc.moderation.status.ensureData()),
  component: ModerationPage,
});

function ModerationPage() {
  const status = trpc.moderation.status.useQuery();
  const moderator = status.data?.moderator === true;
  const queue = trpc.moderation.queue.useQuery(undefined, { enabled: moderator });
  return (
    <>
      <PageHeader title="Review queue">
        <p>Capsules and posts that three people reported are hidden until a moderator restores or removes them.</p>
      </PageHeader>
      <Card title="Hidden for review">
        {status.data && !moderator ? (
          <EmptyState title="This page is for moderators.">Reports you make are read by the moderators of Afterword.</EmptyState>
        ) : (
          <QueryState query={queue} loading="Loading the review queue" failed="The review queue could not be loaded.">
            {(items) => <ReviewQueue items={items} />}
          </QueryState>
        )}
      </Card>
    </>
  );
}
