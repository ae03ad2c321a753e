import { createFileRoute, Link } from '@tanstack/react-router';
import { PageHeader } from '../../features/app-pages/page-header';
import { InboxList } from '../../features/messages/inbox-list';
import { MESSAGE_LIST_REFRESH_MS } from '../../features/messages/queries';
import { trpc } from '../../lib/trpc';

export const Route = createFileRoute('/app/inbox')({
  component: InboxPage,
});

function InboxPage() {
  const inbox = trpc.message.inbox.useQuery(undefined, { refetchInterval: MESSAGE_LIST_REFRESH_MS });
  return (
    <>
      <PageHeader title="Inbox">
        <p>
          Messages other people prepared for you, once they have been released. Your own messages are in{' '}
          <Link to="/app/messages">My Messages</Link>.
        </p>
      </PageHeader>
      <InboxList messages={inbox.data} loading={inbox.isPending} failed={inbox.isError} />
    </>
  );
}
