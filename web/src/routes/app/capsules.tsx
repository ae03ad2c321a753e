import { createFileRoute } from '@tanstack/react-router';
import { Card } from '../../components/card';
import { QueryState } from '../../components/query-state';
import { PageHeader } from '../../features/app-pages/page-header';
import { CapsuleBrowser } from '../../features/community/capsule-browser';
import { CapsuleForm } from '../../features/community/capsule-form';
import { MyCapsules } from '../../features/community/my-capsules';
import { useCapsuleActions } from '../../features/community/queries';
import { awaitReads } from '../../lib/route-data';
import { trpc } from '../../lib/trpc';

export const Route = createFileRoute('/app/capsules')({
  loader: ({ context: { trpc } }) => awaitReads(trpc.capsule.mine.ensureData()),
  component: CapsulesPage,
});

function CapsulesPage() {
  const mine = trpc.capsule.mine.useQuery();
  const actions = useCapsuleActions();
  return (
    <>
      <PageHeader title="Capsules">
        <p>Letters to the world that open on a date you choose. Browse the open ones by theme and year, or write your own.</p>
      </PageHeader>
      <div className="stack">
        <Card title="Write a capsule">
          <CapsuleForm onCreate={actions.create} pending={actions.createPending} />
        </Card>
        <Card title="My capsules">
          <QueryState query={mine} loading="Loading your capsules" failed="Your capsules could not be loaded.">
            {(capsules) => (
              <MyCapsules
                capsules={capsules}
                onDelete={actions.remove}
                onPublish={actions.publish}
                onMediaAdded={actions.mediaAdded}
                onRemoveMedia={actions.removeMedia}
              />
            )}
          </QueryState>
        </Card>
        <Card title="Open capsules">
          <CapsuleBrowser />
        </Card>
      </div>
    </>
  );
}
