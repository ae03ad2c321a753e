import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { fails, fakeTrpcApi, ok } from '../../test-utils/fake-trpc-api';
import { renderWithTrpc } from '../../test-utils/render-with-trpc';
import { formatDateTime } from '../../lib/format-time';
import { DeleteAccountCard } from './delete-account-card';
import { T } from './texts';

const toasts = () => toastStore.getSnapshot().map((t) => t.message);
const scheduled = { type: 'account', id: 'd1', deletion_date: '2026-12-01T10:00:00.000Z', status: 'scheduled', reason: 'request' };

afterEach(() => {
  toastStore.reset();
  vi.unstubAllGlobals();
});

describe('Ada asks for her account to be deleted', () => {
  it('needs her password before anything is asked of the server', async () => {
    const api = fakeTrpcApi({ 'legal.deletions': () => ok({ items: [] }), 'account.requestDeletion': () => ok(scheduled) });
    renderWithTrpc(<DeleteAccountCard />, api);
    fireEvent.click(await screen.findByRole('button', { name: T.deleteButton }));
    expect(await screen.findByText('Enter your password to confirm')).toBeTruthy();
    expect(api.callsTo('account.requestDeletion')).toEqual([]);
  });

  it('confirms in a dialog that says what happens, then sends her password and shows the date', async () => {
    let items: unknown[] = [];
    const api = fakeTrpcApi({
      'legal.deletions': () => ok({ items }),
      'account.checkDeletionPassword': () => ok({ ok: true }),
      'account.requestDeletion': () => {
        items = [scheduled];
        return ok(scheduled);
      },
    });
    renderWithTrpc(<DeleteAccountCard />, api);
    fireEvent.change(await screen.findByLabelText(/Your password/), { target: { value: 'correct horse' } });
    fireEvent.click(screen.getByRole('button', { name: T.deleteButton }));
    const dialog = await screen.findByRole('dialog', { name: T.confirmTitle });
    expect(dialog.textContent).toContain('cannot be undone');
    fireEvent.click(within(dialog).getByRole('button', { name: T.confirmLabel }));
    await waitFor(() => expect(toasts()).toContain(T.requested));
    expect(api.callsTo('account.requestDeletion')).toEqual([{ password: 'correct horse' }]);
    expect(await screen.findByText(T.scheduled(formatDateTime(scheduled.deletion_date)))).toBeTruthy();
  });

  it('says a wrong password under the field before asking "are you sure?", and schedules nothing', async () => {
    const api = fakeTrpcApi({
      'legal.deletions': () => ok({ items: [] }),
      'account.checkDeletionPassword': () => fails(422, [{ loc: ['body', 'password'], msg: 'That is not your password', type: 'wrong_password' }]),
      'account.requestDeletion': () => ok(scheduled),
    });
    renderWithTrpc(<DeleteAccountCard />, api);
    fireEvent.change(await screen.findByLabelText(/Your password/), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: T.deleteButton }));
    expect(await screen.findByText('That is not your password')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.callsTo('account.checkDeletionPassword')).toEqual([{ password: 'wrong' }]);
    expect(api.callsTo('account.requestDeletion')).toEqual([]);
  });

  it('while one is scheduled, offers only Cancel, and cancelling clears it', async () => {
    let items: unknown[] = [scheduled];
    const api = fakeTrpcApi({
      'legal.deletions': () => ok({ items }),
      'account.cancelDeletion': () => {
        items = [];
        return ok({ cancelled: true, id: 'd1' });
      },
    });
    renderWithTrpc(<DeleteAccountCard />, api);
    fireEvent.click(await screen.findByRole('button', { name: T.cancelButton }));
    await waitFor(() => expect(toasts()).toContain(T.cancelled));
    expect(api.callsTo('account.cancelDeletion')).toHaveLength(1);
    expect(await screen.findByRole('button', { name: T.deleteButton })).toBeTruthy();
  });
});
