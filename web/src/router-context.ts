import type { QueryClient } from '@tanstack/react-query';
import type { TrpcClient, TrpcUtils } from './lib/trpc';

/** What every route's loader, beforeLoad and component can reach (TanStack's with-trpc example). */
export interface RouterContext {
  queryClient: QueryClient;
  trpcClient: TrpcClient;
  trpc: TrpcUtils;
}
