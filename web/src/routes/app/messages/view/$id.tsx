import { createFileRoute, Link, Navigate } from '@tanstack/react-router';
import { EmptyState } from '../../../../components/empty-state';
import { ErrorState, type FailedRead } from '../../../../components/error-state';
import { Skeleton } from '../../../../components/skeleton';
import { PageHeader } from '../../../../features/app-pages/page-header';
import { ConnectedEncryptedMessage } from '../../../../features/e2ee/encrypted-message';
import { isSettled } from '../../../../features/messages/format';
import { MessageDetail } from '../../../../features/messages/message-detail';
import { MESSAGE_REFRESH_MS, useMessageActions } from '../../../../features/messages/queries';
import { readApiError } from '../../../../lib/api-error';
import { awaitReads } from '../../../../lib/route-data';
import { trpc } from '../../../../lib/trpc';

export const Route = createFileRoute('/app/messages/view/$id')({
  // A missing or foreign id fails here quietly and is shown by the page as 'could not be found'.
  loader: ({ context: { trpc }, params: { id } }) => awaitReads(trpc.message.byId.ensureData({ id })),
  component: MessageViewPage,
});

function MessageViewPage() {
  const { id } = Route.useParams();
  const actions = useMessageActions();
  const query = trpc.message.byId.useQuery(
    { id },
    {
      // Re-read while something may still happen on its own: a rule firing, a channel answering.
      refetchInterval: (q) => {
        const data = q.state.data;
        if (data?.role !== 'sender') return false;
        return !isSettled(data.message.status) || (data.message.delivered && data.log.length === 0) ? MESSAGE_REFRESH_MS : false;
      },
    },
  );
  // A message left for the caller is read on the recipient's own page, under the Inbox.
  if (query.data?.role === 'recipient') return <Navigate to="/app/inbox/$id" params={{ id }} replace />;

  return (
    <>
      <PageHeader title="Message">
        <p>
          <Link to="/app/messages">Back to My Messages</Link>
        </p>
      </PageHeader>
      {query.isError ? (
        <LoadFailed read={query} />
      ) : query.isPending ? (
        <Skeleton lines={6} label="Loading the message" />
      ) : (
        <MessageDetail
          data={query.data}
          onRelease={actions.release}
          onCancel={actions.cancel}
          pending={actions.pending}
          renderEncrypted={(message) => <ConnectedEncryptedMessage message={message} />}
        />
      )}
    </>
  );
}

/** A malformed id (422) reads like one that is not there: either way there is nothing to show. */
function LoadFailed({ read }: { read: FailedRead }) {
  const { status } = readApiError(read.error);
  if (status !== 404 && status !== 422) return <ErrorState title="This message could not be loaded." read={read} />;
  return (
    <EmptyState title="This message could not be found.">
      <p>It may have been removed, or it is not addressed to you yet.</p>
    </EmptyState>
  );
}
