import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/remembrances')({
  component: RemembrancesPage,
});

function RemembrancesPage() {
  return <NotBuiltPage title="Remembrances" intro="Search remembrances by name, tag and cause." notice="Remembrances are not available yet." />;
}
