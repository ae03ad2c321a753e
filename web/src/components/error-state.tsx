import { readApiError } from '../lib/api-error';
import { Button } from './button';

/** The part of a TanStack query the error state reads: what failed, how to ask again, and whether it is asking. */
export interface FailedRead {
  error: unknown;
  refetch: () => unknown;
  isFetching: boolean;
}

interface ErrorStateProps {
  /** What could not be loaded, as a sentence: "Your canary could not be loaded." */
  title: string;
  read: FailedRead;
}

/** When no answer came at all (offline, the server down), there is no `detail` to show. */
export const NO_ANSWER_TEXT = 'The server did not answer. Check your connection, then try again.';

/**
 * The one error state of every read (UI.md: what went wrong and what to do). A failed load is never
 * shown as an empty or healthy state: it says so, gives the server's `detail` (and the reference of an
 * unexpected error), and offers Retry, which asks again.
 */
export function ErrorState({ title, read }: ErrorStateProps) {
  const { detail, requestId, status } = readApiError(read.error);
  const why = detail ?? (status ? `The server answered with an error (${status}). Please try again.` : NO_ANSWER_TEXT);
  return (
    <div className="error-state" role="alert">
      <p className="error-state__title">{title}</p>
      <p className="error-state__detail">{why}</p>
      {requestId ? <p className="error-state__reference muted">Reference: {requestId}</p> : null}
      <Button variant="secondary" onClick={() => void read.refetch()} disabled={read.isFetching}>
        {read.isFetching ? 'Retrying…' : 'Retry'}
      </Button>
    </div>
  );
}
