import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { Card } from '../../components/card';
import { useContactOptions, useReachabilityLookup } from '../../features/contacts/queries';
import { PageHeader } from '../../features/app-pages/page-header';
import { uploadEncryptedFile } from '../../features/e2ee/files-api';
import { StorageUsage } from '../../features/e2ee/storage-usage';
import { useKeysApi } from '../../features/e2ee/unlock-prompt';
import { CreateMessageForm, type E2eeCreateDeps } from '../../features/messages/create-message-form';
import { messageDrafts } from '../../features/messages/message-draft';
import { useCreateMessage } from '../../features/messages/queries';
import { trpc } from '../../lib/trpc';

export const Route = createFileRoute('/app/create')({
  // The form reads nothing before it is used; the storage meter appears once E2EE is ticked, so warm it.
  loader: ({ context: { trpc } }) => {
    void trpc.attachments.storage.prefetch();
    void trpc.contacts.list.prefetch();
  },
  component: CreateMessagePage,
});

function CreateMessagePage() {
  const create = useCreateMessage();
  const navigate = useNavigate();
  const keys = useKeysApi();
  const utils = trpc.useUtils();
  const contacts = useContactOptions();
  const me = trpc.auth.me.useQuery();
  const drafts = useMemo(() => (me.data ? { store: messageDrafts, userId: me.data.id } : undefined), [me.data]);
  const reachability = useReachabilityLookup();
  const e2ee = useMemo<E2eeCreateDeps>(
    () => ({
      keys,
      upload: async (file) => {
        const uploaded = await uploadEncryptedFile(file);
        void utils.attachments.storage.invalidate();
        return uploaded;
      },
      storage: <StorageUsage />,
    }),
    [keys, utils],
  );
  return (
    <>
      <PageHeader title="Create Message">
        <p>
          Write a message, choose its recipient, and decide when and how it is delivered. You can release or cancel it later from{' '}
          <Link to="/app/messages">My Messages</Link>.
        </p>
      </PageHeader>
      <Card>
        <CreateMessageForm
          create={create}
          e2ee={e2ee}
          drafts={drafts}
          contacts={contacts}
          withPicker
          reachability={reachability}
          onCreated={(m) => void navigate({ to: '/app/messages/view/$id', params: { id: m.id } })}
        />
      </Card>
    </>
  );
}
