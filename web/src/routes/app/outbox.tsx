import { createFileRoute } from '@tanstack/react-router';
import { EmptyState } from '../../components/empty-state';
import { Skeleton } from '../../components/skeleton';
import { PageHeader } from '../../features/app-pages/page-header';
import { OutboxList } from '../../features/outbox/outbox-list';
import { awaitReads } from '../../lib/route-data';
import { trpc } from '../../lib/trpc';
import { ErrorState } from '../../components/error-state';

const OUTBOX_LIMIT = 100;

export const Route = createFileRoute('/app/outbox')({
  // The list is read only where the outbox exists (its status says so), as the page does.
  loader: ({ context: { trpc } }) =>
    awaitReads(
      trpc.outbox.status
        .ensureData(undefined, { staleTime: Infinity })
        .then((status) => (status.enabled ? trpc.outbox.list.ensureData({ limit: OUTBOX_LIMIT }) : undefined)),
    ),
  component: OutboxPage,
});

const OUTBOX_REFRESH_MS = 5_000;

function OutboxPage() {
  // In production there is no outbox (its list answers 404): ask first, and list only when it exists.
  // The list is the signed-in account's own mail (docs/decisions/local-outbox.md).
  const status = trpc.outbox.status.useQuery(undefined, { staleTime: Infinity });
  const enabled = status.data?.enabled === true;
  const outbox = trpc.outbox.list.useQuery({ limit: OUTBOX_LIMIT }, { enabled, refetchInterval: OUTBOX_REFRESH_MS });
  return (
    <>
      <PageHeader title="Outbox">
        <p>
          This is your local mailbox: what Afterword would have sent to you — emails, text messages, calls and push notifications, newest first. Afterword runs
          locally here, so nothing was really sent, and each person signed in sees only what was meant for them.
        </p>
      </PageHeader>
      {status.isError ? (
        <ErrorState title="Whether this Afterword has an outbox could not be checked." read={status} />
      ) : status.isPending ? (
        <Skeleton lines={4} label="Loading the outbox" />
      ) : !enabled ? (
        <EmptyState title="There is no outbox here.">
          <p>This Afterword sends through real providers, so there is nothing to show on this page.</p>
        </EmptyState>
      ) : outbox.isPending ? (
        <Skeleton lines={4} label="Loading the outbox" />
      ) : outbox.isError ? (
        <ErrorState title="The outbox could not be loaded." read={outbox} />
      ) : (
        <OutboxList items={outbox.data.messages} />
      )}
    </>
  );
}
