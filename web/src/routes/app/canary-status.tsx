import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/canary-status')({
  component: CanaryStatusPage,
});

function CanaryStatusPage() {
  return (
    <NotBuiltPage
      title="Canary Status"
      intro="Create and remove canaries, check in, and set up the dead-man's switch."
      notice="Canaries are not available yet."
    />
  );
}
