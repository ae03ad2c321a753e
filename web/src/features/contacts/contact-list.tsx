import type { TContactView } from '@afterword/worker/contracts/contacts';
import { useState } from 'react';
import { Badge, type BadgeTone } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { formatDateTime } from '../../lib/format-time';
import type { Contact } from './types';

const STATUS_LABEL: Record<TContactView['status'], string> = { invited: 'Invited', accepted: 'Contact', declined: 'Declined' };
const STATUS_TONE: Record<TContactView['status'], BadgeTone> = { invited: 'grace', accepted: 'active', declined: 'neutral' };

interface ContactListProps {
  contacts: readonly Contact[];
  /** Resolves true once removed. */
  onRemove: (id: string) => Promise<boolean>;
  removePending: boolean;
}

const title = (c: Contact) => (c.name && c.name !== c.email ? `${c.name} (${c.email})` : c.email);

/** Contacts and invitations, newest first; each can be removed (an invitation withdrawn) after a confirm. */
export function ContactList({ contacts, onRemove, removePending }: ContactListProps) {
  const [confirming, setConfirming] = useState<Contact | null>(null);

  if (!contacts.length) {
    return (
      <EmptyState title="No contacts yet.">
        <p>Invite someone above. Once they accept, you can pick them by name when you write a message or choose a guardian.</p>
      </EmptyState>
    );
  }

  async function confirmRemove() {
    if (confirming && (await onRemove(confirming.id))) setConfirming(null);
  }

  return (
    <>
      <ul className="dev-list" aria-label="Your contacts">
        {contacts.map((c) => (
          <li key={c.id} className="dev-item">
            <div className="dev-item__head">
              <h4 className="dev-item__name">{title(c)}</h4>
              <Badge tone={STATUS_TONE[c.status]}>{STATUS_LABEL[c.status]}</Badge>
            </div>
            <p className="muted">
              {c.direction === 'sent' ? 'You invited them' : 'They invited you'} on <time dateTime={c.invited_at}>{formatDateTime(c.invited_at)}</time>.
            </p>
            <div className="button-row">
              <Button variant="secondary" onClick={() => setConfirming(c)} aria-label={`Remove ${title(c)}`}>
                {c.status === 'invited' ? 'Withdraw' : 'Remove'}
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={confirming?.status === 'invited' ? 'Withdraw this invitation?' : 'Remove this contact?'}
        description={
          confirming?.status === 'invited'
            ? 'The link in the email stops working. You can invite them again later.'
            : confirming?.status === 'accepted'
              ? 'You stop seeing each other in your pickers. Messages already written to them are not changed.'
              : 'The declined invitation is removed from this list.'
        }
        confirmLabel={confirming?.status === 'invited' ? 'Withdraw' : 'Remove'}
        confirmVariant="danger"
        pending={removePending}
        onConfirm={() => void confirmRemove()}
      />
    </>
  );
}
