import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/developer')({
  component: DeveloperPage,
});

function DeveloperPage() {
  return (
    <NotBuiltPage
      title="Developer"
      intro="API keys and webhooks for connecting Afterword to other tools."
      notice="The developer area is not available yet."
    />
  );
}
