import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeTrpcApi, ok } from '../../test-utils/fake-trpc-api';
import { renderWithTrpc } from '../../test-utils/render-with-trpc';
import { CapsuleBrowser } from './capsule-browser';

const capsule = (n: number) => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  title: `Capsule ${n}`,
  theme: 'Hope',
  content: [],
  release_at: new Date(Date.UTC(2026, 0, 1) - n * 60_000).toISOString(),
});

const inRouter = () => {
  const root = createRootRoute({ component: () => <CapsuleBrowser /> });
  const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: ['/'] }) });
  return <RouterProvider router={router as never} />;
};

afterEach(() => vi.unstubAllGlobals());

describe('browsing open capsules', () => {
  it('shows 50, and Show more asks for the ones after the last shown until a page is not full', async () => {
    const api = fakeTrpcApi({
      'capsule.browse': (input) => ok((input as { cursor?: string }).cursor ? [capsule(50)] : Array.from({ length: 50 }, (_, i) => capsule(i))),
    });
    renderWithTrpc(inRouter(), api);
    const list = await screen.findByRole('list', { name: 'Open capsules' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(50);
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Open capsules' })).getAllByRole('listitem')).toHaveLength(51));
    const last = capsule(49);
    expect((api.callsTo('capsule.browse')[1] as { cursor: string }).cursor).toBe(btoa(`${Date.parse(last.release_at)}:${last.id}`).replace(/=+$/, ''));
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });
});
