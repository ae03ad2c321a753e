import { createFileRoute } from '@tanstack/react-router';
import { Card } from '../../components/card';
import { Skeleton } from '../../components/skeleton';
import { PageHeader } from '../../features/app-pages/page-header';
import { AssignForm } from '../../features/guardian/assign-form';
import { GuardianList } from '../../features/guardian/guardian-list';
import { OwnersList } from '../../features/guardian/owners-list';
import { useGuardianActions } from '../../features/guardian/queries';
import { T } from '../../features/guardian/texts';
import { awaitReads } from '../../lib/route-data';
import { trpc } from '../../lib/trpc';

export const Route = createFileRoute('/app/guardian')({
  loader: ({ context: { trpc } }) => {
    // Below the fold: the people who chose you may arrive after the page.
    void trpc.guardian.owners.prefetch();
    return awaitReads(trpc.guardian.list.ensureData());
  },
  component: GuardianPage,
});

function GuardianPage() {
  const guardians = trpc.guardian.list.useQuery();
  const owners = trpc.guardian.owners.useQuery();
  const actions = useGuardianActions();

  return (
    <>
      <PageHeader title="Guardian">
        <p>Assign a trusted person, by email, to help confirm what should happen if you stop checking in.</p>
      </PageHeader>
      <div className="stack">
        <Card title="Assign a guardian">
          <AssignForm onAssign={actions.assign} pending={actions.assignPending} />
        </Card>
        <Card title="Your guardians">
          {guardians.isPending ? (
            <Skeleton lines={3} label="Loading your guardians" />
          ) : guardians.isError ? (
            <p className="muted">{T.loadFailed}</p>
          ) : (
            <GuardianList guardians={guardians.data} onRevoke={actions.revoke} revokePending={actions.revokePending} />
          )}
        </Card>
        <Card title="People who chose you">
          {owners.isPending ? (
            <Skeleton lines={2} label="Loading the people who chose you" />
          ) : owners.isError ? (
            <p className="muted">{T.loadFailed}</p>
          ) : (
            <OwnersList owners={owners.data} />
          )}
        </Card>
      </div>
    </>
  );
}
