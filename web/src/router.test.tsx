import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RECENT_ACTIVITY_LIMIT } from './features/canary/queries';
import { ATTEMPTS_SHOWN } from './features/developer/attempts';
import { ladder, openWindowLadder, VETO_SUMMARY } from './features/guardian/test-fixtures';
import { T as GUARDIAN_T } from './features/guardian/texts';
import { messageView } from './features/messages/test-fixtures';
import { markOnboardingSeen, setToken } from './lib/session';
import { createAppRouter } from './router';
import { fails, fakeTrpcApi, ok } from './test-utils/fake-trpc-api';

const MESSAGE_ID = 'a1b2c3d4-0000-4000-8000-000000000001';

/** What every /app page's frame reads (the layout's loader prefetches them). */
const FRAME = {
  'auth.me': () => ok({ id: '11111111-2222-4333-8444-555555555555', email: 'ada@example.com', plan: 'free' }),
  'outbox.status': () => ok({ enabled: false }),
};

function routerAt(path: string) {
  return createAppRouter({ history: createMemoryHistory({ initialEntries: [path] }) });
}

/** Loads `path` (beforeLoad, then the loaders) without rendering, against `api`. */
async function load(path: string, api: ReturnType<typeof fakeTrpcApi>) {
  vi.stubGlobal('fetch', api.fetch);
  const router = routerAt(path);
  await router.load();
  return router;
}

describe('route loaders', () => {
  beforeEach(() => {
    setToken('tok-loader');
    markOnboardingSeen();
  });
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    [
      '/app',
      [
        ['canary.status', undefined],
        ['activity.recent', { limit: RECENT_ACTIVITY_LIMIT }],
        ['guardian.ladder', undefined],
      ],
    ],
    ['/app/messages', [['message.list', { filter: 'all' }]]],
    ['/app/messages?filter=sent', [['message.list', { filter: 'sent' }]]],
    [`/app/messages/view/${MESSAGE_ID}`, [['message.byId', { id: MESSAGE_ID }]]],
    [
      '/app/canary-status',
      [
        ['canary.status', undefined],
        ['canary.list', undefined],
        ['deadman.get', undefined],
      ],
    ],
    [
      '/app/notifications',
      [
        ['notify.preferences', undefined],
        ['profile.get', undefined],
        ['notify.pushSubscriptions', undefined],
        ['attachments.storage', undefined],
      ],
    ],
    ['/app/inbox', [['message.inbox', undefined]]],
    ['/app/create', [['attachments.storage', undefined]]],
    [
      '/app/guardian',
      [
        ['guardian.list', undefined],
        ['guardian.settings', undefined],
        ['guardian.ladder', undefined],
        ['guardian.owners', undefined],
      ],
    ],
    [
      '/app/vault',
      [
        ['vault.list', undefined],
        ['attachments.storage', undefined],
      ],
    ],
    [
      '/app/consent',
      [
        ['legal.consents', undefined],
        ['legal.deletions', undefined],
      ],
    ],
  ] as const)('%s reads what its page reads, with the same input', async (path, expected) => {
    const api = fakeTrpcApi(FRAME);
    await load(path, api);
    // Secondary reads are started, not awaited: they may still be on their way when load() resolves.
    await vi.waitFor(() => {
      for (const [procedure, input] of expected) expect(api.callsTo(procedure), procedure).toEqual([input]);
    });
    // Every /app page's frame, fetched alongside.
    for (const procedure of ['auth.me', 'outbox.status']) expect(api.callsTo(procedure), procedure).toHaveLength(1);
  });

  it("/app/developer reads keys, webhooks and then each webhook's attempts", async () => {
    const api = fakeTrpcApi({ ...FRAME, 'webhooks.list': () => ok([{ id: 'wh-1' }, { id: 'wh-2' }]) });
    await load('/app/developer', api);
    await vi.waitFor(() => expect(api.callsTo('webhooks.attempts')).toHaveLength(2));
    expect(api.callsTo('webhooks.attempts')).toEqual([
      { id: 'wh-1', limit: ATTEMPTS_SHOWN },
      { id: 'wh-2', limit: ATTEMPTS_SHOWN },
    ]);
    for (const procedure of ['auth.me', 'developer.keys.list', 'webhooks.sample']) expect(api.callsTo(procedure), procedure).toHaveLength(1);
  });

  it('/app/outbox lists the outbox only where it exists', async () => {
    const off = fakeTrpcApi({ ...FRAME, 'outbox.status': () => ok({ enabled: false }) });
    await load('/app/outbox', off);
    expect(off.callsTo('outbox.list')).toEqual([]);
    const on = fakeTrpcApi({ ...FRAME, 'outbox.status': () => ok({ enabled: true }), 'outbox.list': () => ok({ messages: [] }) });
    await load('/app/outbox', on);
    expect(on.callsTo('outbox.list')).toEqual([{ limit: 100 }]);
  });

  it('runs no loader without a session: the auth redirect comes first', async () => {
    localStorage.clear();
    const api = fakeTrpcApi({});
    const router = await load('/app/messages', api);
    expect(router.state.location.pathname).toBe('/login');
    expect(api.calls).toEqual([]);
  });

  it('renders the page straight from the cache the loader filled, never its loading state', async () => {
    const api = fakeTrpcApi({
      ...FRAME,
      'message.list': () => ok([messageView({ id: MESSAGE_ID, content: 'The keys are in the blue box.' })]),
    });
    const router = await load('/app/messages', api);
    const listed = api.callsTo('message.list').length;
    render(<RouterProvider router={router} />);
    await screen.findByRole('heading', { level: 1, name: 'My Messages' });
    // In the same render as the heading: the list is there and its skeleton never was.
    expect(screen.getByRole('heading', { level: 3, name: 'The keys are in the blue box.' })).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Loading your messages' })).toBeNull();
    expect(api.callsTo('message.list')).toHaveLength(listed);
  });

  it('leaves a failed read to the page, which shows its own error state rather than a crash page', async () => {
    const api = fakeTrpcApi({ ...FRAME, 'message.byId': () => fails(404, 'Message not found') });
    const router = await load(`/app/messages/view/${MESSAGE_ID}`, api);
    expect(router.state.matches.at(-1)?.status).toBe('success');
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('This message could not be found.')).toBeTruthy();
    expect(screen.getByText('It may have been removed, or it is not addressed to you yet.')).toBeTruthy();
  });
});

describe("the dashboard's guardian banner", () => {
  beforeEach(() => {
    setToken('tok-dashboard');
    markOnboardingSeen();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('warns Ada with an alert when her death was reported and the veto window is open', async () => {
    const router = await load('/app', fakeTrpcApi({ ...FRAME, 'guardian.ladder': () => ok(openWindowLadder()) }));
    render(<RouterProvider router={router} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(VETO_SUMMARY);
    expect(alert.textContent).toContain(GUARDIAN_T.bannerRefutes);
  });

  it('says nothing while no report is open', async () => {
    const router = await load('/app', fakeTrpcApi({ ...FRAME, 'guardian.ladder': () => ok(ladder()) }));
    render(<RouterProvider router={router} />);
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    await vi.waitFor(() => expect(router.options.context.queryClient.isFetching()).toBe(0));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(GUARDIAN_T.bannerLink)).toBeNull();
  });
});
