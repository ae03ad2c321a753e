import { render } from '@testing-library/react';
import { vi } from 'vitest';
import type { ReactElement, ReactNode } from 'react';
import { createTrpcClient, trpc } from '../lib/trpc';
import type { fakeTrpcApi } from './fake-trpc-api';
import { createTestQueryClient, QueryWrapper } from './query-client';

/**
 * Renders `ui` with the app's real tRPC client talking to `api` (a fakeTrpcApi behind `fetch`), so a
 * test sees which procedure a click calls and with what input. Call `vi.unstubAllGlobals()` after.
 */
export function renderWithTrpc(ui: ReactElement, api: ReturnType<typeof fakeTrpcApi>) {
  vi.stubGlobal('fetch', api.fetch);
  const queryClient = createTestQueryClient();
  const client = createTrpcClient(() => undefined);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <trpc.Provider client={client} queryClient={queryClient}>
      <QueryWrapper client={queryClient}>{children}</QueryWrapper>
    </trpc.Provider>
  );
  return { queryClient, ...render(ui, { wrapper }) };
}
