import type { VaultClaimView } from '@afterword/worker/contracts/vault';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { markOnboardingSeen, setToken } from '../../lib/session';
import { createAppRouter } from '../../router';
import { fails, fakeTrpcApi, ok } from '../../test-utils/fake-trpc-api';
import { PENDING_CLAIM_KEY } from './pending-claim';
import { T } from './texts';

const TOKEN = 'Zx8_k2Lm-9QwErTyUiOpAsDfGhJkL012';
const MESSAGE_ID = 'a1b2c3d4-0000-4000-8000-000000000009';

const claim = (over: Partial<VaultClaimView> = {}): VaultClaimView => ({ state: 'waiting', for_you: null, from_name: null, message_id: null, ...over });

/** Opens the claim link in the app, the server answering `answer` for it. */
async function openClaimLink(answer: ReturnType<typeof ok>) {
  const api = fakeTrpcApi({ 'vault.claim': () => answer });
  vi.stubGlobal('fetch', api.fetch);
  const router = createAppRouter({ history: createMemoryHistory({ initialEntries: [`/claim/${TOKEN}`] }) });
  await router.load();
  render(<RouterProvider router={router} />);
  await screen.findByRole('heading', { level: 1, name: T.claimTitle });
  return { api, router, page: within(screen.getByRole('main')) };
}

describe('the claim link (a vault QR code)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('tells an anonymous visitor that something will be left for them, asks them to sign in, and remembers the link', async () => {
    const { api, page } = await openClaimLink(ok(claim({ state: 'waiting' })));
    expect(await page.findByText(T.waitingAnon)).toBeTruthy();
    expect(page.getByText(T.signInToSee)).toBeTruthy();
    expect(page.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    expect(page.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/signup');
    expect(api.callsTo('vault.claim')).toEqual([{ token: TOKEN }]);
    expect(sessionStorage.getItem(PENDING_CLAIM_KEY)).toBe(TOKEN);
  });

  it('tells an anonymous visitor that something has been left for them once it is released', async () => {
    await openClaimLink(ok(claim({ state: 'released' })));
    expect(await screen.findByText(T.releasedAnon)).toBeTruthy();
    expect(screen.queryByRole('link', { name: T.openInInbox })).toBeNull();
  });

  it('brings the visitor back to the claim link once they have signed in', async () => {
    sessionStorage.setItem(PENDING_CLAIM_KEY, TOKEN);
    setToken('recipient-session');
    markOnboardingSeen();
    vi.stubGlobal('fetch', fakeTrpcApi({}).fetch);
    const router = createAppRouter({ history: createMemoryHistory({ initialEntries: ['/app'] }) });
    await router.load();
    expect(router.state.location.pathname).toBe(`/claim/${TOKEN}`);
    expect(sessionStorage.getItem(PENDING_CLAIM_KEY)).toBeNull();
  });

  it('shows the recipient, signed in, from whom it is and a link to open it in their inbox once released', async () => {
    setToken('recipient-session');
    await openClaimLink(ok(claim({ state: 'released', for_you: true, from_name: 'Ada Owner', message_id: MESSAGE_ID })));
    expect(await screen.findByText(T.releasedFor('Ada Owner'))).toBeTruthy();
    expect(screen.getByRole('link', { name: T.openInInbox }).getAttribute('href')).toBe(`/app/messages/view/${MESSAGE_ID}`);
    expect(sessionStorage.getItem(PENDING_CLAIM_KEY)).toBeNull();
  });

  it('tells the recipient, signed in, from whom it will be, without a link before release', async () => {
    setToken('recipient-session');
    await openClaimLink(ok(claim({ state: 'waiting', for_you: true, from_name: 'Ada Owner' })));
    expect(await screen.findByText(T.waitingFor('Ada Owner'))).toBeTruthy();
    expect(screen.queryByRole('link', { name: T.openInInbox })).toBeNull();
  });

  it('tells an outsider, signed in, that this link is for someone else, and nothing more', async () => {
    setToken('outsider-session');
    await openClaimLink(ok(claim({ state: 'released', for_you: false })));
    expect(await screen.findByText(T.someoneElse)).toBeTruthy();
    expect(screen.queryByText(/Ada/)).toBeNull();
    expect(screen.queryByRole('link', { name: T.openInInbox })).toBeNull();
  });

  it.each([
    ['an unknown link (404)', fails(404, 'Nothing is waiting under this link: it may have been withdrawn')],
    ['a withdrawn item', ok(claim({ state: 'withdrawn' }))],
  ])('says "Nothing is waiting under this link" for %s', async (_case, answer) => {
    const { page } = await openClaimLink(answer);
    expect(await page.findByText('Nothing is waiting under this link')).toBeTruthy();
    expect(page.queryByRole('link', { name: 'Sign in' })).toBeNull();
    expect(sessionStorage.getItem(PENDING_CLAIM_KEY)).toBeNull();
  });
});
