import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/capsule/$id')({
  component: CapsulePage,
});

function CapsulePage() {
  return <NotBuiltPage title="Capsule" intro="A capsule's text, audio and video items." notice="Capsules are not available yet." />;
}
