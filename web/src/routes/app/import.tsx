import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/import')({
  component: ImportChatPage,
});

function ImportChatPage() {
  return (
    <NotBuiltPage
      title="Import Chat"
      intro="Upload a chat-history JSON file so your persona can learn how you write."
      notice="Importing chat history is not available yet."
    />
  );
}
