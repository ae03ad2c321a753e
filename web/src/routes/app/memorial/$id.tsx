import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/memorial/$id')({
  component: MemorialPage,
});

function MemorialPage() {
  return <NotBuiltPage title="Memorial" intro="A memorial page with public capsules, posts and candles." notice="Memorial pages are not available yet." />;
}
