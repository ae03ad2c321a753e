import type { MessageFilter } from '@afterword/worker/contracts/messages';
import { createFileRoute, Link } from '@tanstack/react-router';
import { buttonClass } from '../../../components/button';
import { QueryState } from '../../../components/query-state';
import { PageHeader } from '../../../features/app-pages/page-header';
import { isMessageFilter } from '../../../features/messages/message-filter';
import { MessageFilterTabs, MessageList } from '../../../features/messages/message-list';
import { MESSAGE_LIST_REFRESH_MS } from '../../../features/messages/queries';
import { awaitReads } from '../../../lib/route-data';
import { trpc } from '../../../lib/trpc';

export const Route = createFileRoute('/app/messages/')({
  // The filter lives in the address (?filter=pending), so it survives a reload and can be linked to.
  validateSearch: (search: Record<string, unknown>): { filter?: MessageFilter } =>
    isMessageFilter(search.filter) && search.filter !== 'all' ? { filter: search.filter } : {},
  loaderDeps: ({ search }) => ({ filter: search.filter ?? 'all' }),
  loader: ({ context: { trpc }, deps: { filter } }) => awaitReads(trpc.message.list.ensureData({ filter })),
  component: MessagesPage,
});

function MessagesPage() {
  const { filter = 'all' } = Route.useSearch();
  const navigate = Route.useNavigate();
  const list = trpc.message.list.useQuery({ filter }, { refetchInterval: MESSAGE_LIST_REFRESH_MS, placeholderData: (prev) => prev });

  return (
    <>
      <PageHeader title="My Messages">
        <p>
          Messages you have prepared, when each is due, and whether it has been sent. Messages others have left for you are in your{' '}
          <Link to="/app/inbox">Inbox</Link>.
        </p>
      </PageHeader>
      <div className="toolbar">
        <MessageFilterTabs value={filter} onChange={(f) => void navigate({ search: f === 'all' ? {} : { filter: f }, replace: true })} />
        <Link to="/app/create" className={buttonClass('primary')}>
          Create Message
        </Link>
      </div>
      <QueryState query={list} loading="Loading your messages" failed="Your messages could not be loaded." lines={4}>
        {(messages) => <MessageList messages={messages} filter={filter} />}
      </QueryState>
    </>
  );
}
