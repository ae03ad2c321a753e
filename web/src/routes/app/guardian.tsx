import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/guardian')({
  component: GuardianPage,
});

function GuardianPage() {
  return (
    <NotBuiltPage
      title="Guardian"
      intro="Assign a trusted person, by email, to help confirm what should happen if you stop checking in."
      notice="Guardian assignment is not available yet."
    />
  );
}
