import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/messages/view/$id')({
  component: MessageViewPage,
});

function MessageViewPage() {
  return (
    <NotBuiltPage
      title="Message"
      intro="A message's content, audio and delivery log."
      notice="Viewing messages is not available yet."
    />
  );
}
