import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { fakeTrpcApi, ok } from '../../test-utils/fake-trpc-api';
import { renderWithTrpc } from '../../test-utils/render-with-trpc';
import { type QueueItem, ReviewQueue } from './review-queue';

const items: QueueItem[] = [
  { type: 'capsule', id: 'c1', label: 'Spam', text: '<b>buy now</b>', reports: 3, hidden_at: '2026-11-20T10:00:00.000Z' },
  { type: 'post', id: 'p1', label: 'Grace', text: 'A cruel post', reports: 4, hidden_at: '2026-11-21T10:00:00.000Z' },
];

const inRouter = (list: QueueItem[]) => {
  const root = createRootRoute({ component: () => <ReviewQueue items={list} /> });
  const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: ['/'] }) });
  return <RouterProvider router={router as never} />;
};

afterEach(() => {
  toastStore.reset();
  vi.unstubAllGlobals();
});

describe('a moderator reviews what reports hid', () => {
  it('sees each hidden item’s words as text and who reported it, and restores a capsule or removes a post', async () => {
    const api = fakeTrpcApi({
      'moderation.decideCapsule': (input) => ok({ type: 'capsule', ...(input as object) }),
      'moderation.decidePost': (input) => ok({ type: 'post', ...(input as object) }),
    });
    renderWithTrpc(inRouter(items), api);
    const capsule = await screen.findByRole('listitem', { name: 'Capsule “Spam”' });
    expect(within(capsule).getByText('<b>buy now</b>')).toBeTruthy();
    expect(capsule.textContent).toContain('Reported by 3 people');
    fireEvent.click(within(capsule).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(api.callsTo('moderation.decideCapsule')).toEqual([{ id: 'c1', decision: 'restore' }]));
    await waitFor(() => expect(toastStore.getSnapshot().map((t) => t.message)).toContain('Restored: public again'));
    const post = screen.getByRole('listitem', { name: 'Post on the memorial of Grace' });
    fireEvent.click(within(post).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.callsTo('moderation.decidePost')).toEqual([{ id: 'p1', decision: 'remove' }]));
  });

  it('says when nothing waits', async () => {
    renderWithTrpc(inRouter([]), fakeTrpcApi({}));
    expect(await screen.findByText('Nothing waits for review.')).toBeTruthy();
  });
});
