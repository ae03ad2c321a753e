import { createFileRoute, Link } from '@tanstack/react-router';
import { QueryState } from '../../components/query-state';
import { PageHeader } from '../../features/app-pages/page-header';
import { EncryptedExcerpt } from '../../features/e2ee/encrypted-message';
import { ConnectedUnlockPrompt } from '../../features/e2ee/unlock-prompt';
import { isSealed, useReader } from '../../features/e2ee/use-opened-message';
import { CopiesLeftToYou } from '../../features/legacy/copies-card';
import { InboxList } from '../../features/messages/inbox-list';
import { MESSAGE_LIST_REFRESH_MS } from '../../features/messages/queries';
import { awaitReads } from '../../lib/route-data';
import { trpc } from '../../lib/trpc';

export const Route = createFileRoute('/app/inbox')({
  loader: ({ context: { trpc } }) => awaitReads(trpc.message.inbox.ensureData()),
  component: InboxPage,
});

function InboxPage() {
  const inbox = trpc.message.inbox.useQuery(undefined, { refetchInterval: MESSAGE_LIST_REFRESH_MS });
  const { reader } = useReader();
  const needsKey = !reader && (inbox.data ?? []).some(isSealed);
  return (
    <>
      <PageHeader title="Inbox">
        <p>
          Messages other people prepared for you, once they have been released. Your own messages are in <Link to="/app/messages">My Messages</Link>.
        </p>
      </PageHeader>
      {needsKey ? <ConnectedUnlockPrompt /> : null}
      <QueryState query={inbox} loading="Loading your inbox" failed="Your inbox could not be loaded." lines={4}>
        {(messages) => <InboxList messages={messages} renderEncryptedExcerpt={(m) => <EncryptedExcerpt message={m} reader={reader} />} />}
      </QueryState>
      <CopiesLeftToYou />
    </>
  );
}
