import { createFileRoute } from '@tanstack/react-router';
import { Card } from '../../components/card';
import { Skeleton } from '../../components/skeleton';
import { useContactOptions } from '../../features/contacts/queries';
import { PageHeader } from '../../features/app-pages/page-header';
import { AssignForm } from '../../features/guardian/assign-form';
import { GuardianConsentWithdrawn } from '../../features/guardian/consent-withdrawn';
import { GuardianList } from '../../features/guardian/guardian-list';
import { LadderCard } from '../../features/guardian/ladder-card';
import { MemorialWishCard } from '../../features/community/memorial-wish-card';
import { OwnersList } from '../../features/guardian/owners-list';
import { useGuardianActions, useGuardianAnswers } from '../../features/guardian/queries';
import { SettingsCard } from '../../features/guardian/settings-card';
import { T } from '../../features/guardian/texts';
import { awaitReads } from '../../lib/route-data';
import { trpc } from '../../lib/trpc';
import { ErrorState } from '../../components/error-state';

export const Route = createFileRoute('/app/guardian')({
  loader: ({ context: { trpc } }) => {
    // Secondary reads may arrive after the page: each card has its own loading state.
    void trpc.guardian.ladder.prefetch();
    void trpc.guardian.settings.prefetch();
    void trpc.guardian.owners.prefetch();
    void trpc.contacts.list.prefetch();
    void trpc.memorial.wish.prefetch();
    return awaitReads(trpc.guardian.list.ensureData());
  },
  component: GuardianPage,
});

function GuardianPage() {
  const guardians = trpc.guardian.list.useQuery();
  const owners = trpc.guardian.owners.useQuery();
  const actions = useGuardianActions();
  const answers = useGuardianAnswers();
  const contacts = useContactOptions();

  const chosenBy = (
    <Card title="People who chose you">
      {owners.isPending ? (
        <Skeleton lines={2} label="Loading the people who chose you" />
      ) : owners.isError ? (
        <ErrorState title={T.loadFailed} read={owners} />
      ) : (
        <OwnersList owners={owners.data} actions={answers} />
      )}
    </Card>
  );
  // Someone who guards others and has no guardians of their own came for the people who chose them: lead with them.
  const leadWithChosenBy = Boolean(owners.data?.length) && guardians.data?.length === 0;

  return (
    <>
      <PageHeader title="Guardian">
        <p>Assign a trusted person, by email, to help confirm what should happen if you stop checking in.</p>
      </PageHeader>
      <div className="stack">
        {leadWithChosenBy ? chosenBy : null}
        <GuardianConsentWithdrawn />
        <Card title="Assign a guardian">
          <AssignForm onAssign={actions.assign} pending={actions.assignPending} contacts={contacts} withPicker />
        </Card>
        <Card title="Your guardians">
          {guardians.isPending ? (
            <Skeleton lines={3} label="Loading your guardians" />
          ) : guardians.isError ? (
            <ErrorState title={T.loadFailed} read={guardians} />
          ) : (
            <GuardianList guardians={guardians.data} onRevoke={actions.revoke} revokePending={actions.revokePending} />
          )}
        </Card>
        <SettingsCard guardians={guardians.data} />
        <LadderCard guardians={guardians.data} />
        <MemorialWishCard />
        {leadWithChosenBy ? null : chosenBy}
      </div>
    </>
  );
}
