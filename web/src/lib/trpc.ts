import type { AppRouter } from '@afterword/worker/trpc';
import { TRPC_MAX_BATCH } from '@afterword/worker/contracts/transport';
import { QueryClient } from '@tanstack/react-query';
import { createTRPCQueryUtils, createTRPCReact, httpBatchLink, type TRPCLink } from '@trpc/react-query';
import { observable } from '@trpc/server/observable';
import { readApiError } from './api-error';
import { getToken } from './session';

export const trpc = createTRPCReact<AppRouter>();

/** Procedures where a 401 means "wrong credentials", not "session expired": the form shows it. */
const CREDENTIAL_PROCEDURES = new Set(['auth.login', 'auth.register']);

/** Calls `onUnauthorized` when the API answers 401 to a signed-in call (expired or revoked session). */
function unauthorizedLink(onUnauthorized: () => void): TRPCLink<AppRouter> {
  return () =>
    ({ op, next }) =>
      observable((observer) =>
        next(op).subscribe({
          next: (value) => observer.next(value),
          complete: () => observer.complete(),
          error: (error) => {
            if (readApiError(error).status === 401 && !CREDENTIAL_PROCEDURES.has(op.path)) onUnauthorized();
            observer.error(error);
          },
        }),
      );
}

export function createTrpcClient(onUnauthorized: () => void) {
  return trpc.createClient({
    links: [
      unauthorizedLink(onUnauthorized),
      httpBatchLink({
        url: '/api/trpc',
        // The server refuses larger batches (worker/src/contracts/transport.ts).
        maxItems: TRPC_MAX_BATCH,
        // Read at call time, so a login or logout takes effect without rebuilding the client.
        headers() {
          const token = getToken();
          return token ? { Authorization: `Bearer ${token}` } : {};
        },
      }),
    ],
  });
}

export type TrpcClient = ReturnType<typeof createTrpcClient>;

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // A 4xx will not fix itself; retry only what might (network blips, 5xx) and only once.
      queries: { staleTime: 30_000, retry: (count, error) => count < 1 && (readApiError(error).status ?? 500) >= 500 },
    },
  });
}

export function createTrpcUtils(queryClient: QueryClient, client: TrpcClient) {
  return createTRPCQueryUtils({ queryClient, client });
}
export type TrpcUtils = ReturnType<typeof createTrpcUtils>;
