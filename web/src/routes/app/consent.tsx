import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/consent')({
  component: ConsentPage,
});

function ConsentPage() {
  return (
    <NotBuiltPage
      title="Data Consents"
      intro="Choose what Afterword may process, export all your data, and see scheduled deletions."
      notice="Data consents are not available yet."
    />
  );
}
