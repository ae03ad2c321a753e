import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { Card } from '../../components/card';
import { Skeleton } from '../../components/skeleton';
import { PageHeader } from '../../features/app-pages/page-header';
import { CanaryList } from '../../features/canary/canary-list';
import { CanaryWarnings } from '../../features/canary/canary-warnings';
import { CreateCanaryForm } from '../../features/canary/create-canary-form';
import { CANARY_STATUS_REFRESH_MS } from '../../features/canary/queries';
import { ServerStatus } from '../../features/canary/server-status';
import { SimulateMissPanel } from '../../features/canary/simulate-miss-panel';
import { useSimulatedMiss } from '../../features/canary/simulated-miss';
import { useCheckIn, useCreateCanary, useDeleteCanary, usePauseCanary, useUpdateCanary } from '../../features/canary/use-canary-actions';
import { DeadmanSection } from '../../features/deadman/deadman-section';
import { TestEverything } from '../../features/rehearsal/test-everything';
import { useRunRehearsal } from '../../features/rehearsal/use-rehearsal';
import { HeirsCard } from '../../features/legacy/heirs-card';
import { useDeadmanActions } from '../../features/deadman/use-deadman-actions';
import { awaitReads } from '../../lib/route-data';
import { isTestMode } from '../../lib/test-mode';
import { trpc } from '../../lib/trpc';
import { useNow } from '../../lib/use-now';
import { ErrorState } from '../../components/error-state';
import { QueryState } from '../../components/query-state';

export const Route = createFileRoute('/app/canary-status')({
  loader: ({ context: { trpc } }) => awaitReads(trpc.canary.status.ensureData(), trpc.canary.list.ensureData(), trpc.deadman.get.ensureData()),
  component: CanaryStatusPage,
});

function CanaryStatusPage() {
  const nowMs = useNow();
  const [testMode] = useState(isTestMode);
  const status = trpc.canary.status.useQuery(undefined, { refetchInterval: CANARY_STATUS_REFRESH_MS });
  const list = trpc.canary.list.useQuery();
  const deadman = trpc.deadman.get.useQuery();
  const me = trpc.auth.me.useQuery();
  const simulatedAt = useSimulatedMiss();
  const checkIn = useCheckIn();
  const create = useCreateCanary();
  const remove = useDeleteCanary();
  const pauses = usePauseCanary();
  const edits = useUpdateCanary();
  const deadmanActions = useDeadmanActions();
  const rehearsals = trpc.rehearsal.list.useQuery();
  const rehearsal = useRunRehearsal();

  return (
    <>
      <PageHeader title="Canary Status">
        <p>Create and remove canaries, check in, and set up the dead-man's switch.</p>
      </PageHeader>
      <div className="stack">
        <Card title="Status">
          <QueryState query={status} loading="Loading status" failed="Your canary status could not be loaded." lines={2}>
            {(data) => (
              <ServerStatus
                status={data}
                deadmanActive={deadman.data?.active === true}
                simulatedMiss={simulatedAt !== null}
                onCheckIn={checkIn.checkIn}
                checkInPending={checkIn.pending}
              />
            )}
          </QueryState>
          {testMode ? <SimulateMissPanel /> : null}
        </Card>
        <Card title="Create a canary">
          <CreateCanaryForm
            onCreate={create.create}
            pending={create.pending}
            allowance={me.data && list.data ? { plan: me.data.plan, owned: list.data.length } : undefined}
          />
        </Card>
        <Card title="Your canaries">
          {list.isPending ? (
            <Skeleton lines={3} label="Loading your canaries" />
          ) : list.isError ? (
            <ErrorState title="Your canaries could not be loaded." read={list} />
          ) : (
            <CanaryList
              canaries={list.data ?? []}
              nowMs={nowMs}
              origin={window.location.origin}
              onDelete={remove.remove}
              deletePending={remove.pending}
              pauses={pauses}
              edits={edits}
            />
          )}
        </Card>
        <Card title="Warnings to you">
          <CanaryWarnings canaries={(list.data ?? []).filter((c) => c.active)} />
        </Card>
        <Card title="Test everything">
          <TestEverything recent={rehearsals.data?.rehearsals ?? []} onRun={rehearsal.run} pending={rehearsal.pending} />
        </Card>
        <Card title="Dead-man's switch">
          <QueryState query={deadman} loading="Loading the dead-man's switch" failed="Your dead-man's switch could not be loaded." lines={2}>
            {(data) => (
              <DeadmanSection deadman={data} nowMs={nowMs} onSetup={deadmanActions.setup} onCancel={deadmanActions.cancel} pending={deadmanActions.pending} />
            )}
          </QueryState>
        </Card>
        <HeirsCard />
      </div>
    </>
  );
}
