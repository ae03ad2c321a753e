import type { TMemorialWish } from '@afterword/worker/contracts/memorials';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { fakeTrpcApi, ok } from '../../test-utils/fake-trpc-api';
import { renderWithTrpc } from '../../test-utils/render-with-trpc';
import { MemorialWishCard, WISH_TEXT } from './memorial-wish-card';

const wish = (over: Partial<TMemorialWish> = {}): TMemorialWish => ({
  name: 'Ada Lovelace',
  avatar_url: null,
  epitaph: 'Poetical science.',
  tags: ['teachers'],
  cause: null,
  memorial_id: 'm1',
  made_at: null,
  updated_at: '2026-11-20T10:00:00.000Z',
  ...over,
});

/** The card inside a router (its made page is a Link). */
const inRouter = () => {
  const root = createRootRoute({ component: () => <MemorialWishCard /> });
  const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: ['/'] }) });
  return <RouterProvider router={router as never} />;
};

afterEach(() => {
  toastStore.reset();
  vi.unstubAllGlobals();
});

describe('Ada asks for a memorial page at her death', () => {
  it('fills the fields and saves the wish: name, epitaph and tags as a memorial would have them', async () => {
    const api = fakeTrpcApi({ 'memorial.wish': () => ok({ wish: null }), 'memorial.saveWish': () => ok({ wish: wish() }) });
    renderWithTrpc(inRouter(), api);
    await screen.findByRole('form', { name: WISH_TEXT.form });
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Ada Lovelace' } });
    fireEvent.change(screen.getByLabelText('Epitaph'), { target: { value: 'Poetical science.' } });
    fireEvent.change(screen.getByLabelText(/^Tags/), { target: { value: 'Teachers, ' } });
    fireEvent.click(screen.getByRole('button', { name: WISH_TEXT.save }));
    await waitFor(() =>
      expect(api.callsTo('memorial.saveWish')).toEqual([
        { name: 'Ada Lovelace', epitaph: 'Poetical science.', tags: ['teachers'], cause: null, avatar_url: null },
      ]),
    );
    await waitFor(() => expect(toastStore.getSnapshot().map((t) => t.message)).toContain(WISH_TEXT.saved));
    expect(await screen.findByRole('button', { name: WISH_TEXT.remove })).toBeTruthy();
  });

  it('shows a saved wish in the fields, and can take it back', async () => {
    const api = fakeTrpcApi({ 'memorial.wish': () => ok({ wish: wish() }), 'memorial.deleteWish': () => ok({ wish: null }) });
    renderWithTrpc(inRouter(), api);
    expect(((await screen.findByLabelText('Epitaph')) as HTMLInputElement).value).toBe('Poetical science.');
    fireEvent.click(screen.getByRole('button', { name: WISH_TEXT.remove }));
    await waitFor(() => expect(api.callsTo('memorial.deleteWish')).toHaveLength(1));
    await waitFor(() => expect((screen.getByLabelText('Epitaph') as HTMLInputElement).value).toBe(''));
  });

  it('links to the page once it was made', async () => {
    renderWithTrpc(inRouter(), fakeTrpcApi({ 'memorial.wish': () => ok({ wish: wish({ made_at: '2026-11-21T10:00:00.000Z' }) }) }));
    const link = await screen.findByRole('link', { name: 'Ada Lovelace' });
    expect(link.getAttribute('href')).toBe('/app/memorial/m1');
    expect(screen.queryByRole('form', { name: WISH_TEXT.form })).toBeNull();
  });
});
