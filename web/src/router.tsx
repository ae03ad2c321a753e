import { QueryClientProvider } from '@tanstack/react-query';
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { routeTree } from './routeTree.gen';
import { deviceUnlock } from './features/e2ee/device-unlock';
import { e2eeStore } from './features/e2ee/key-store';
import { clearToken } from './lib/session';
import { createQueryClient, createTrpcClient, createTrpcUtils, trpc } from './lib/trpc';

/**
 * The app's router; tests pass a memory history. Prerendering (src/prerender.tsx) turns scroll
 * restoration off: on a server the router writes it as an inline script, which the CSP refuses
 * (web/public/_headers); in the browser the router restores scroll itself.
 */
export function createAppRouter({ history, scrollRestoration = true }: { history?: RouterHistory; scrollRestoration?: boolean } = {}) {
  const queryClient = createQueryClient();
  // A 401 from a signed-in call means the session is gone: forget it and go to sign-in.
  const trpcClient = createTrpcClient(() => {
    clearToken();
    e2eeStore.reset();
    void deviceUnlock.forget().catch(() => undefined);
    queryClient.clear();
    void router.navigate({ to: '/login' });
  });

  const router = createRouter({
    routeTree,
    context: { queryClient, trpcClient, trpc: createTrpcUtils(queryClient, trpcClient) },
    ...(history ? { history } : {}),
    // Hovering a link runs the target's loader, which fills the query cache (lib/route-data.ts).
    defaultPreload: 'intent',
    // The query cache decides what is fresh: the router's own 30 s cache of preloads would skip loaders.
    defaultPreloadStaleTime: 0,
    scrollRestoration,
    Wrap: ({ children }: { children: ReactNode }) => (
      <trpc.Provider client={trpcClient} queryClient={queryClient}>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </trpc.Provider>
    ),
  });
  return router;
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
