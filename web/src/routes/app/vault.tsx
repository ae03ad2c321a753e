import { createFileRoute } from '@tanstack/react-router';
import { useMemo } from 'react';
import { Card } from '../../components/card';
import { Skeleton } from '../../components/skeleton';
import { useContactOptions } from '../../features/contacts/queries';
import { PageHeader } from '../../features/app-pages/page-header';
import { StorageUsage } from '../../features/e2ee/storage-usage';
import { useKeysApi } from '../../features/e2ee/unlock-prompt';
import { useVaultActions } from '../../features/vault/queries';
import type { VaultDeps } from '../../features/vault/save-vault-item';
import { T } from '../../features/vault/texts';
import { uploadVaultFile } from '../../features/vault/vault-api';
import { VaultForm } from '../../features/vault/vault-form';
import { VaultList } from '../../features/vault/vault-list';
import { awaitReads } from '../../lib/route-data';
import { trpc } from '../../lib/trpc';
import { ErrorState } from '../../components/error-state';

export const Route = createFileRoute('/app/vault')({
  loader: ({ context: { trpc } }) => {
    // The storage meter sits under the form: it may arrive after the page.
    void trpc.attachments.storage.prefetch();
    void trpc.contacts.list.prefetch();
    return awaitReads(trpc.vault.list.ensureData());
  },
  component: VaultPage,
});

function VaultPage() {
  const items = trpc.vault.list.useQuery();
  const actions = useVaultActions();
  const keys = useKeysApi();
  const contacts = useContactOptions();
  const deps = useMemo<VaultDeps>(() => ({ keys, upload: uploadVaultFile, assign: actions.assign }), [keys, actions.assign]);

  return (
    <>
      <PageHeader title="Vault">
        <p>
          Store a file for one person and choose when it is released to them: on their birthday after your death is confirmed, on an exact date, or once your
          death is confirmed. It is encrypted in your browser, so only you and they can open it. Once released, it is in their inbox.
        </p>
      </PageHeader>
      <div className="stack">
        <Card title="Store a file">
          <VaultForm deps={deps} contacts={contacts} withPicker />
          <div className="vault-storage">
            <StorageUsage />
          </div>
        </Card>
        <Card title="Your vault">
          {items.isPending ? (
            <Skeleton lines={3} label="Loading your vault" />
          ) : items.isError ? (
            <ErrorState title={T.loadFailed} read={items} />
          ) : (
            <VaultList items={items.data} onDelete={actions.remove} deletePending={actions.removePending} />
          )}
        </Card>
      </div>
    </>
  );
}
