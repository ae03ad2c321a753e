import { createFileRoute } from '@tanstack/react-router';
import { QueryState } from '../../../components/query-state';
import { Time } from '../../../components/time';
import { PageHeader } from '../../../features/app-pages/page-header';
import { CapsuleItems } from '../../../features/community/capsule-items';
import { ReportCapsule } from '../../../features/community/report-capsule';
import { awaitReads } from '../../../lib/route-data';
import { trpc } from '../../../lib/trpc';

export const Route = createFileRoute('/app/capsule/$id')({
  loader: ({ context: { trpc }, params }) => awaitReads(trpc.capsule.view.ensureData({ id: params.id })),
  component: CapsulePage,
});

function CapsulePage() {
  const { id } = Route.useParams();
  const capsule = trpc.capsule.view.useQuery({ id });
  const c = capsule.data;
  return (
    <>
      <PageHeader title={c?.title ?? 'Capsule'}>
        {c ? (
          <p>
            {c.theme} · {c.is_anonymous ? 'Anonymous' : c.user_email} · {Date.parse(c.released_at) > Date.now() ? 'opens' : 'opened'}{' '}
            <Time value={c.released_at} />
          </p>
        ) : null}
      </PageHeader>
      <QueryState query={capsule} loading="Loading the capsule" failed="This capsule could not be loaded.">
        {(loaded) => (
          <>
            <CapsuleItems content={loaded.content} open={Date.parse(loaded.released_at) <= Date.now()} />
            <ReportCapsule id={loaded.id} />
          </>
        )}
      </QueryState>
    </>
  );
}
