/*
 * Route loaders fill the query cache before a page renders (and on hover, through the router's
 * `defaultPreload: 'intent'`): a page's primary reads with `ensureData`, awaited, so its first render
 * has them; secondary reads with `prefetch`, started and not awaited. Each read uses exactly the
 * input the page's `useQuery` uses, so both name the same cache entry.
 */

/**
 * Waits for a page's primary reads. A failure is dropped here on purpose: the page's own query then
 * meets it (it refetches an entry that holds an error) and shows its error state, with the server's
 * detail, instead of the router's error page. A 401 still signs out through the tRPC client's link.
 */
export async function awaitReads(...reads: Promise<unknown>[]): Promise<void> {
  await Promise.allSettled(reads);
}
