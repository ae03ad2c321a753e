import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Card } from '../../components/card';
import { PageHeader } from '../../features/app-pages/page-header';
import { CreateMessageForm } from '../../features/messages/create-message-form';
import { useCreateMessage } from '../../features/messages/queries';

export const Route = createFileRoute('/app/create')({
  component: CreateMessagePage,
});

function CreateMessagePage() {
  const create = useCreateMessage();
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="Create Message">
        <p>
          Write a message, choose its recipient, and decide when and how it is delivered. You can release or cancel it later from{' '}
          <Link to="/app/messages">My Messages</Link>.
        </p>
      </PageHeader>
      <Card>
        <CreateMessageForm create={create} onCreated={(m) => void navigate({ to: '/app/messages/view/$id', params: { id: m.id } })} />
      </Card>
    </>
  );
}
