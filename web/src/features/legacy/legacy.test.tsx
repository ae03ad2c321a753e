import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { fails, fakeTrpcApi, ok } from '../../test-utils/fake-trpc-api';
import { renderWithTrpc } from '../../test-utils/render-with-trpc';
import { CopiesLeftToYou } from './copies-card';
import { HeirsCard } from './heirs-card';
import { T } from './texts';

const BOB = { id: 'c1', email: 'bob@example.com', user_id: '7b1e5c8e-1111-4a2b-9c3d-000000000001', name: 'Bob', status: 'accepted' };
const toasts = () => toastStore.getSnapshot().map((t) => t.message);

afterEach(() => {
  toastStore.reset();
  vi.unstubAllGlobals();
});

/** The heirs card holds the contact picker, whose links need a router. */
function renderInRouter(ui: () => React.ReactNode, api: ReturnType<typeof fakeTrpcApi>) {
  const root = createRootRoute({ component: () => <>{ui()}</> });
  const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: ['/'] }) });
  return renderWithTrpc(<RouterProvider router={router as never} />, api);
}

describe('Ada names who receives a copy before her account is deleted', () => {
  it('says nobody is named yet, and refuses to add a person without parts before asking the server', async () => {
    const api = fakeTrpcApi({ 'legacy.heirs': () => ok({ heirs: [] }), 'contacts.list': () => ok([BOB]), 'legacy.setHeirs': () => ok({ heirs: [] }) });
    renderInRouter(() => <HeirsCard />, api);
    expect(await screen.findByText(T.noHeirs)).toBeTruthy();
    await screen.findByRole('option', { name: /Bob/ });
    fireEvent.change(screen.getByLabelText(/Pick from your contacts/), { target: { value: BOB.user_id } });
    expect((screen.getByLabelText(/Recipient User ID/) as HTMLInputElement).value).toBe(BOB.user_id);
    fireEvent.click(screen.getByRole('button', { name: T.addButton }));
    expect(await screen.findByText(T.needParts)).toBeTruthy();
    expect(api.callsTo('legacy.setHeirs')).toEqual([]);
  });

  it('picks Bob by name with two parts and sends the whole list', async () => {
    let heirs: unknown[] = [];
    const api = fakeTrpcApi({
      'legacy.heirs': () => ok({ heirs }),
      'contacts.list': () => ok([BOB]),
      'legacy.setHeirs': (input) => {
        heirs = (input as { heirs: { recipient_user_id: string; parts: string[] }[] }).heirs.map((h) => ({ ...h, name: 'Bob (bob@example.com)' }));
        return ok({ heirs });
      },
    });
    renderInRouter(() => <HeirsCard />, api);
    await screen.findByRole('option', { name: /Bob/ });
    fireEvent.change(screen.getByLabelText(/Pick from your contacts/), { target: { value: BOB.user_id } });
    fireEvent.click(screen.getByLabelText(T.partLabel.messages));
    fireEvent.click(screen.getByLabelText(T.partLabel.vault));
    fireEvent.click(screen.getByRole('button', { name: T.addButton }));
    await waitFor(() => expect(api.callsTo('legacy.setHeirs')).toEqual([{ heirs: [{ recipient_user_id: BOB.user_id, parts: ['messages', 'vault'] }] }]));
    expect(await screen.findByRole('button', { name: T.removeButton('Bob (bob@example.com)') })).toBeTruthy();
    expect(screen.getByText(/Messages you wrote, Vault files/)).toBeTruthy();
    expect(toasts()).toContain(T.saved);
  });

  it('shows the server’s reason when the list is refused', async () => {
    const api = fakeTrpcApi({
      'legacy.heirs': () => ok({ heirs: [] }),
      'contacts.list': () => ok([]),
      'legacy.setHeirs': () => fails(422, [{ loc: ['body', 'heirs'], msg: 'There is no account with this id', type: 'heir_unknown' }]),
    });
    renderInRouter(() => <HeirsCard />, api);
    fireEvent.change(await screen.findByLabelText(/Recipient User ID/), { target: { value: '7b1e5c8e-1111-4a2b-9c3d-000000000009' } });
    fireEvent.click(screen.getByLabelText(T.partLabel.account));
    fireEvent.click(screen.getByRole('button', { name: T.addButton }));
    await waitFor(() => expect(toasts()).toContain('There is no account with this id'));
  });
});

describe('Bob finds what Ada left him in his Inbox', () => {
  it('shows nothing at all when nobody left him a copy', async () => {
    const api = fakeTrpcApi({ 'legacy.copies': () => ok([]) });
    const { container } = renderWithTrpc(<CopiesLeftToYou />, api);
    await waitFor(() => expect(api.callsTo('legacy.copies')).toHaveLength(1));
    expect(container.textContent).toBe('');
  });

  it('lists a copy from Ada with its download', async () => {
    const copy = {
      id: 'a1b2c3d4-0000-4000-8000-000000000000',
      from: 'Ada (ada@example.com)',
      parts: ['messages'],
      status: 'ready',
      size: 3_500_000,
      created_at: '2026-11-20T10:00:00.000Z',
      ready_at: '2026-11-20T10:01:00.000Z',
    };
    const api = fakeTrpcApi({ 'legacy.copies': () => ok([copy]) });
    renderWithTrpc(<CopiesLeftToYou />, api);
    expect(await screen.findByText('Ada (ada@example.com)')).toBeTruthy();
    expect(screen.getByText(/3\.5 MB/)).toBeTruthy();
    expect(screen.getByRole('button', { name: `${T.download} the copy from Ada (ada@example.com)` })).toBeTruthy();
  });
});
