import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/memorial/')({
  component: MemorialsPage,
});

function MemorialsPage() {
  return <NotBuiltPage title="Memorials" intro="Search memorials by text and tag." notice="Memorials are not available yet." />;
}
