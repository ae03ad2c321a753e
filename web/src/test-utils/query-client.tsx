import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';

/** A fresh cache per test; no retries, so a failure shows at once. */
export function createTestQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

export function QueryWrapper({ client, children }: { client: QueryClient; children: ReactNode }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** Renders `ui` inside a QueryClientProvider (components that read with useQuery need one); rerender keeps it. */
export function renderWithQuery(ui: ReactElement, queryClient = createTestQueryClient()) {
  const wrapper = ({ children }: { children: ReactNode }) => <QueryWrapper client={queryClient}>{children}</QueryWrapper>;
  return { queryClient, ...render(ui, { wrapper }) };
}
