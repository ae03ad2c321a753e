import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/capsules')({
  component: CapsulesPage,
});

function CapsulesPage() {
  return <NotBuiltPage title="Capsules" intro="Browse time capsules by theme and year." notice="Capsules are not available yet." />;
}
