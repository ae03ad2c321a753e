import type { ReactNode } from 'react';
import { ErrorState, type FailedRead } from './error-state';
import { Skeleton } from './skeleton';

/** What QueryState reads of a TanStack (or tRPC) query. */
export interface QueryLike<T> extends FailedRead {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
}

interface QueryStateProps<T> {
  query: QueryLike<T>;
  /** The skeleton's label: "Loading your canaries". */
  loading: string;
  /** The error state's title: "Your canaries could not be loaded." */
  failed: string;
  lines?: number;
  children: (data: T) => ReactNode;
}

/**
 * Loading, failed or loaded — one shape for every read. A failed read shows the error state even when
 * an older answer is cached: a page must not show stale data as if it were current (a canary "OK" while
 * the server cannot be reached).
 */
export function QueryState<T>({ query, loading, failed, lines = 3, children }: QueryStateProps<T>) {
  if (query.isError) return <ErrorState title={failed} read={query} />;
  if (query.isPending || query.data === undefined) return <Skeleton lines={lines} label={loading} />;
  return <>{children(query.data)}</>;
}
