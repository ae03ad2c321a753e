import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { AppRouter } from '@afterword/worker/trpc';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '../../components/toast/toast-store';
import { trpc } from '../../lib/trpc';
import { ATTEMPTS_REFRESH_MS } from './attempts';
import { useWebhookActions } from './queries';
import { webhook } from './test-fixtures';
import { WebhookAttempts } from './webhook-attempts';

/**
 * The server as the page meets it, in process: the webhook list, its attempts log (counted: a read after the
 * webhook is gone answers 404, a console error in the owner's browser), and a delete the test lets finish.
 */
function fakeServer() {
  const state = { hooks: [webhook()], attemptReads: 0, attemptReadsOfGone: 0, finishDelete: () => {} };
  const link: TRPCLink<AppRouter> =
    () =>
    ({ op }) =>
      observable((observer) => {
        const answer = (data: unknown) => {
          observer.next({ result: { type: 'data', data } });
          observer.complete();
        };
        if (op.path === 'webhooks.list') answer(state.hooks);
        else if (op.path === 'webhooks.attempts') {
          state.attemptReads += 1;
          if (!state.hooks.some((h) => h.id === (op.input as { id: string }).id)) state.attemptReadsOfGone += 1;
          answer([]);
        } else if (op.path === 'webhooks.remove') {
          state.finishDelete = () => {
            state.hooks = state.hooks.filter((h) => h.id !== (op.input as { id: string }).id);
            answer({ ok: true });
          };
        } else observer.error(new Error(`unexpected call ${op.path}`) as never);
      });
  return { state, client: trpc.createClient({ links: [link] }) };
}

/** The developer page's webhooks, cut down to the list, each endpoint's log and a delete button. */
function Webhooks() {
  const list = trpc.webhooks.list.useQuery();
  const actions = useWebhookActions();
  return (
    <ul>
      {(list.data ?? []).map((w) => (
        <li key={w.id}>
          <WebhookAttempts webhook={w} deleting={actions.removingId === w.id} />
          <button type="button" onClick={() => void actions.remove(w.id)}>
            Delete {w.url}
          </button>
        </li>
      ))}
    </ul>
  );
}

describe('deleting a webhook', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => {
    vi.useRealTimers();
    toastStore.reset();
  });

  it('stops its attempts log re-reading while the delete is under way, and after it, nothing reads the gone webhook', async () => {
    const { state, client } = fakeServer();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <trpc.Provider client={client} queryClient={queryClient}>
        <QueryClientProvider client={queryClient}>
          <Webhooks />
        </QueryClientProvider>
      </trpc.Provider>,
    );
    await screen.findByText('No delivery attempts yet.', { exact: false });
    await act(async () => void (await vi.advanceTimersByTimeAsync(ATTEMPTS_REFRESH_MS)));
    const readsBefore = state.attemptReads;
    expect(readsBefore).toBeGreaterThanOrEqual(2); // the log re-reads itself while the webhook stands

    await act(async () => screen.getByRole('button', { name: /Delete/ }).click());
    // The delete is slow: several refresh periods pass before the server answers.
    await act(async () => void (await vi.advanceTimersByTimeAsync(3 * ATTEMPTS_REFRESH_MS)));
    expect(state.attemptReads).toBe(readsBefore);

    await act(async () => state.finishDelete());
    await act(async () => void (await vi.advanceTimersByTimeAsync(3 * ATTEMPTS_REFRESH_MS)));
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(state.attemptReadsOfGone).toBe(0);
    expect(state.attemptReads).toBe(readsBefore);
  });
});
