import { createFileRoute, Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { EmptyState } from '../../components/empty-state';
import { ErrorState } from '../../components/error-state';
import { Skeleton } from '../../components/skeleton';
import { PageHeader } from '../../features/app-pages/page-header';
import { ConnectedEncryptedMessage } from '../../features/e2ee/encrypted-message';
import { useMarkRead } from '../../features/messages/queries';
import { ReceivedMessageView } from '../../features/messages/received-message';
import { fromLabel } from '../../features/messages/release-reason';
import { readApiError } from '../../lib/api-error';
import { awaitReads } from '../../lib/route-data';
import { trpc } from '../../lib/trpc';

/** inbox/{id}: a message someone left for the signed-in user, as its recipient reads it (not the sender's page). */
export const Route = createFileRoute('/app/inbox_/$id')({
  loader: ({ context: { trpc }, params: { id } }) => awaitReads(trpc.message.byId.ensureData({ id })),
  component: ReceivedMessagePage,
});

function ReceivedMessagePage() {
  const { id } = Route.useParams();
  const query = trpc.message.byId.useQuery({ id });
  const received = query.data?.role === 'recipient' ? query.data.message : null;
  const markRead = useMarkRead();
  // Opening it is reading it: the Inbox's unread count drops.
  const unread = received !== null && received.read_at === null;
  useEffect(() => {
    if (unread) markRead(id);
  }, [unread, id]);

  return (
    <>
      <PageHeader title={received ? `Message from ${fromLabel(received)}` : 'Message'}>
        <p>
          <Link to="/app/inbox">Back to your Inbox</Link>
        </p>
      </PageHeader>
      {query.isError ? (
        isNotFound(query.error) ? (
          <EmptyState title="This message could not be found.">
            <p>It may have been removed, or it is not addressed to you yet.</p>
          </EmptyState>
        ) : (
          <ErrorState title="This message could not be loaded." read={query} />
        )
      ) : query.isPending ? (
        <Skeleton lines={6} label="Loading the message" />
      ) : received ? (
        <ReceivedMessageView message={received} renderEncrypted={(m) => <ConnectedEncryptedMessage message={m} />} />
      ) : (
        // The caller wrote it: their own page has its history and log.
        <EmptyState
          title="You sent this message."
          action={
            <Link to="/app/messages/view/$id" params={{ id }}>
              Open it in My Messages
            </Link>
          }
        />
      )}
    </>
  );
}

/** A malformed id (422) reads like one that is not there: either way there is nothing to show. */
const isNotFound = (error: unknown) => [404, 422].includes(readApiError(error).status ?? 0);
