import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/messages/')({
  component: MessagesPage,
});

function MessagesPage() {
  return (
    <NotBuiltPage
      title="My Messages"
      intro="Messages you have prepared, with when each will be delivered and whether it has been sent."
      notice="Messages are not available yet."
    />
  );
}
