import { createFileRoute } from '@tanstack/react-router';
import { Card } from '../../components/card';
import { Skeleton } from '../../components/skeleton';
import { PageHeader } from '../../features/app-pages/page-header';
import { AddContactForm } from '../../features/contacts/add-contact-form';
import { ContactList } from '../../features/contacts/contact-list';
import { useContactActions } from '../../features/contacts/queries';
import { awaitReads } from '../../lib/route-data';
import { trpc } from '../../lib/trpc';

export const Route = createFileRoute('/app/contacts')({
  loader: ({ context: { trpc } }) => awaitReads(trpc.contacts.list.ensureData()),
  component: ContactsPage,
});

function ContactsPage() {
  const contacts = trpc.contacts.list.useQuery();
  const actions = useContactActions();
  return (
    <>
      <PageHeader title="Contacts">
        <p>People you can pick by name when you write a message or choose a guardian, instead of typing their user ID.</p>
      </PageHeader>
      <div className="stack">
        <Card title="Add a contact">
          <AddContactForm onAdd={actions.add} pending={actions.addPending} />
        </Card>
        <Card title="Your contacts">
          {contacts.isPending ? (
            <Skeleton lines={3} label="Loading your contacts" />
          ) : contacts.isError ? (
            <p className="muted">Your contacts could not be loaded. Reload the page to try again.</p>
          ) : (
            <ContactList contacts={contacts.data} onRemove={actions.remove} removePending={actions.removePending} />
          )}
        </Card>
      </div>
    </>
  );
}
