import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../features/app-pages/page-header';
import { ImportChat } from '../../features/chat-import/import-chat';
import { T } from '../../features/chat-import/texts';

export const Route = createFileRoute('/app/import')({
  component: ImportChatPage,
});

function ImportChatPage() {
  return (
    <>
      <PageHeader title={T.title}>
        <p>{T.intro}</p>
      </PageHeader>
      <ImportChat />
    </>
  );
}
