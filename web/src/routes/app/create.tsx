import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/create')({
  component: CreateMessagePage,
});

function CreateMessagePage() {
  return (
    <NotBuiltPage
      title="Create Message"
      intro="Write a message, choose its recipient, and decide when and how it is delivered."
      notice="Creating messages is not available yet."
    />
  );
}
