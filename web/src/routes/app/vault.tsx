import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/vault')({
  component: VaultPage,
});

function VaultPage() {
  return (
    <NotBuiltPage
      title="Vault"
      intro="Store a file with a delivery condition: a recipient's birthday, an exact date, or after your death."
      notice="The vault is not available yet."
    />
  );
}
