import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '../../test-utils/render-with-router';
import { AssignForm } from '../guardian/assign-form';
import type { VaultDeps } from '../vault/save-vault-item';
import { VaultForm } from '../vault/vault-form';
import { AcceptContact } from './accept-contact';
import { ADD_CONTACT_SENT, AddContactForm } from './add-contact-form';
import { ContactPicker } from './contact-picker';
import { contactOptions, type Contact, type ContactOption } from './types';

const BOB: ContactOption = { user_id: '7d3f0c2e-4b1a-4c8e-9f6d-2a5b8c1e0f3a', name: 'Bob', email: 'bob@example.com' };
const ANN: ContactOption = { user_id: '0b1c2d3e-4f50-4617-8829-3a4b5c6d7e8f', name: 'ann@example.com', email: 'ann@example.com' };

const contact = (over: Partial<Contact>): Contact => ({
  id: crypto.randomUUID(),
  status: 'accepted',
  direction: 'sent',
  email: 'x@example.com',
  name: 'X',
  user_id: crypto.randomUUID(),
  invited_at: '2026-11-01T10:00:00.000Z',
  responded_at: '2026-11-02T10:00:00.000Z',
  ...over,
});

describe('contactOptions', () => {
  it('offers only accepted contacts, by name, whichever side invited', () => {
    const list = [
      contact({ name: 'Zoe', user_id: 'z', email: 'zoe@example.com', direction: 'received' }),
      contact({ status: 'invited', name: null, user_id: null }),
      contact({ status: 'declined', name: null, user_id: null }),
      contact({ name: 'Bob', user_id: 'b', email: 'bob@example.com' }),
    ];
    expect(contactOptions(list)).toEqual([
      { user_id: 'b', name: 'Bob', email: 'bob@example.com' },
      { user_id: 'z', name: 'Zoe', email: 'zoe@example.com' },
    ]);
  });
});

describe('ContactPicker', () => {
  it('lists contacts by name and hands the picked one back', async () => {
    const onPick = vi.fn();
    renderWithRouter(() => <ContactPicker contacts={[BOB, ANN]} selected={undefined} onPick={onPick} />);
    const select = (await screen.findByLabelText('Pick from your contacts')) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['Choose a contact', 'Bob (bob@example.com)', 'ann@example.com']);
    fireEvent.change(select, { target: { value: BOB.user_id } });
    expect(onPick).toHaveBeenCalledWith(BOB);
  });

  it('with no contacts, says where to add them', async () => {
    renderWithRouter(() => <ContactPicker contacts={[]} selected={undefined} onPick={vi.fn()} />);
    expect((await screen.findByRole('link', { name: 'Add a contact' })).getAttribute('href')).toBe('/app/contacts');
    expect(screen.queryByLabelText('Pick from your contacts')).toBeNull();
  });
});

describe('the guardian form with contacts', () => {
  it('fills the email with the picked contact’s, and sends it', async () => {
    const onAssign = vi.fn(async () => true);
    renderWithRouter(() => <AssignForm onAssign={onAssign} pending={false} contacts={[BOB]} withPicker />);
    fireEvent.change(await screen.findByLabelText('Pick from your contacts'), { target: { value: BOB.user_id } });
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe('bob@example.com');
    fireEvent.click(screen.getByLabelText(/agreed to be asked/));
    fireEvent.click(screen.getByRole('button', { name: 'Assign guardian' }));
    await waitFor(() => expect(onAssign).toHaveBeenCalledWith({ email: 'bob@example.com', consent: true }));
  });
});

describe('the vault form with contacts', () => {
  it('fills the recipient’s user id from the picked contact', async () => {
    renderWithRouter(() => <VaultForm deps={{} as VaultDeps} contacts={[BOB]} withPicker />);
    fireEvent.change(await screen.findByLabelText('Pick from your contacts'), { target: { value: BOB.user_id } });
    expect((screen.getByRole('textbox', { name: /^Recipient User ID/ }) as HTMLInputElement).value).toBe(BOB.user_id);
  });
});

describe('AddContactForm', () => {
  it('asks for an address before sending, then says the invitation went', async () => {
    const onAdd = vi.fn(async () => true);
    renderWithRouter(() => <AddContactForm onAdd={onAdd} pending={false} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Enter their email address.')).toBeTruthy();
    expect(onAdd).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: ' bob@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect((await screen.findByRole('status')).textContent).toBe(ADD_CONTACT_SENT);
    expect(onAdd).toHaveBeenCalledWith('bob@example.com');
  });
});

describe('AcceptContact', () => {
  it('accepts and names who invited; a refused link shows the server’s words', async () => {
    const onAccept = vi.fn(async () => ({ id: 'c', status: 'accepted' as const, inviter_name: 'Ann' }));
    renderWithRouter(() => <AcceptContact signedIn onAccept={onAccept} onDecline={vi.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    expect((await screen.findByRole('status')).textContent).toBe('You and Ann are now contacts.');
  });

  it('signed out, asks to sign in first and offers no buttons', async () => {
    renderWithRouter(() => <AcceptContact signedIn={false} onAccept={vi.fn()} onDecline={vi.fn()} />);
    expect(await screen.findByText(/Sign in, or create an account/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
  });
});
