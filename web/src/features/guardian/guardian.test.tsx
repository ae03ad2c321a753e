import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../lib/api-error';
import { renderWithRouter } from '../../test-utils/render-with-router';
import { AcceptInvitation } from './accept-invitation';
import { AssignForm } from './assign-form';
import { GuardianList } from './guardian-list';
import { OwnersList } from './owners-list';
import { PENDING_INVITE_KEY, rememberPendingInvite, takePendingInvite } from './pending-invite';
import { T } from './texts';
import { guardedOwner as owner, guardian } from './test-fixtures';

describe('AssignForm', () => {
  it('asks for an email and the consent before sending anything', async () => {
    const onAssign = vi.fn(async () => true);
    render(<AssignForm onAssign={onAssign} pending={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Assign guardian' }));
    expect(await screen.findByText(T.emailRequired)).toBeTruthy();
    expect(screen.getByText(T.consentRequired)).toBeTruthy();
    expect(onAssign).not.toHaveBeenCalled();
  });

  it("sends email and consent, then shows the alert 'Guardian assigned' and clears", async () => {
    const onAssign = vi.fn(async () => true);
    render(<AssignForm onAssign={onAssign} pending={false} />);
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: '  sam@example.com ' } });
    fireEvent.click(screen.getByLabelText(/agreed to be asked/));
    fireEvent.click(screen.getByRole('button', { name: 'Assign guardian' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Guardian assigned');
    expect(onAssign).toHaveBeenCalledWith({ email: 'sam@example.com', consent: true });
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe('');
  });

  it('shows no success and keeps the email when assigning failed', async () => {
    const onAssign = vi.fn(async () => false);
    render(<AssignForm onAssign={onAssign} pending={false} />);
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'sam@example.com' } });
    fireEvent.click(screen.getByLabelText(/agreed to be asked/));
    fireEvent.click(screen.getByRole('button', { name: 'Assign guardian' }));
    await waitFor(() => expect(onAssign).toHaveBeenCalled());
    expect(screen.queryByText('Guardian assigned')).toBeNull();
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe('sam@example.com');
  });
});

describe('GuardianList', () => {
  it('says so when there are none', () => {
    render(<GuardianList guardians={[]} onRevoke={vi.fn()} revokePending={false} />);
    expect(screen.getByText('No guardians yet.')).toBeTruthy();
  });

  it('lists each guardian with its state; ended ones cannot be revoked', () => {
    render(
      <GuardianList
        guardians={[guardian(), guardian({ id: 'g2', email: 'kim@example.com', status: 'active', name: 'Kim' }), guardian({ id: 'g3', status: 'declined' })]}
        onRevoke={vi.fn()}
        revokePending={false}
      />,
    );
    const [first, second, third] = screen.getAllByRole('listitem');
    expect(first!.textContent).toContain('Invited');
    expect(second!.textContent).toContain('Kim (kim@example.com)');
    expect(second!.textContent).toContain('Active');
    expect(third!.textContent).toContain('Declined');
    expect(within(third!).queryByRole('button')).toBeNull();
  });

  it('revokes only after the confirm', async () => {
    const onRevoke = vi.fn(async (_id: string) => true);
    render(<GuardianList guardians={[guardian({ id: 'g9', status: 'active', name: 'Kim' })]} onRevoke={onRevoke} revokePending={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Revoke guardian sam@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: T.revokeTitle });
    expect(dialog.textContent).toContain('stops being your guardian');
    expect(onRevoke).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: T.revokeConfirm }));
    await waitFor(() => expect(onRevoke).toHaveBeenCalledWith('g9'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('OwnersList', () => {
  const actions = { answer: vi.fn(), answerPending: false, resign: vi.fn(), resignPending: false };

  it('shows each person who chose you with their ladder state', () => {
    render(<OwnersList owners={[owner(), owner({ id: 'o2', owner_name: 'Robin', stage: 'missed' })]} actions={actions} />);
    expect(screen.getByRole('listitem', { name: 'Ada' }).textContent).toContain('Ada (ada@example.com)');
    expect(screen.getByRole('listitem', { name: 'Ada' }).textContent).toContain('Checking in');
    expect(screen.getByRole('listitem', { name: 'Robin' }).textContent).toContain('Missed a check-in');
  });

  it('says so when nobody has chosen you', () => {
    render(<OwnersList owners={[]} actions={actions} />);
    expect(screen.getByText('Nobody has chosen you yet.')).toBeTruthy();
  });
});

describe('AcceptInvitation', () => {
  afterEach(() => sessionStorage.clear());

  it('signed out: asks to sign in or create an account, with both links, and no answer buttons', async () => {
    renderWithRouter(() => <AcceptInvitation signedIn={false} onAccept={vi.fn()} onDecline={vi.fn()} />);
    expect(await screen.findByText(T.signInFirst)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/signup');
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
  });

  it('signed in: Accept says whom you now guard', async () => {
    const onAccept = vi.fn(async () => ({ id: 'g1', status: 'active' as const, owner_name: 'Alex' }));
    renderWithRouter(() => <AcceptInvitation signedIn onAccept={onAccept} onDecline={vi.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    expect((await screen.findByRole('status')).textContent).toBe('You are now a guardian for Alex.');
  });

  it("signed in: a failed answer shows the server's detail", async () => {
    const onDecline = vi.fn(async () => {
      throw new HttpError(404, { detail: 'Invitation not found' });
    });
    renderWithRouter(() => <AcceptInvitation signedIn onAccept={vi.fn()} onDecline={onDecline} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invitation not found');
    expect(screen.getByRole('button', { name: 'Accept' })).toBeTruthy();
  });

  it('the pending invitation is kept in sessionStorage and taken once', () => {
    rememberPendingInvite('tok123');
    expect(sessionStorage.getItem(PENDING_INVITE_KEY)).toBe('tok123');
    expect(takePendingInvite()).toBe('tok123');
    expect(takePendingInvite()).toBeNull();
  });
});
