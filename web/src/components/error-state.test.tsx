import { useQuery } from '@tanstack/react-query';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { HttpError } from '../lib/api-error';
import { renderWithQuery } from '../test-utils/query-client';
import { ErrorState, NO_ANSWER_TEXT } from './error-state';
import { QueryState } from './query-state';

const read = (error: unknown, refetch = vi.fn()) => ({ error, refetch, isFetching: false });

describe('ErrorState', () => {
  it("says what could not be loaded and gives the server's detail", () => {
    renderWithQuery(<ErrorState title="Your canary could not be loaded." read={read(new HttpError(503, { detail: 'The database is busy' }))} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Your canary could not be loaded.');
    expect(alert.textContent).toContain('The database is busy');
  });

  it('says the server did not answer when no answer came, and names the reference of an unexpected error', () => {
    const { unmount } = renderWithQuery(<ErrorState title="Failed." read={read(new TypeError('Failed to fetch'))} />);
    expect(screen.getByRole('alert').textContent).toContain(NO_ANSWER_TEXT);
    unmount();
    renderWithQuery(<ErrorState title="Failed." read={read(new HttpError(500, { detail: 'Internal server error', request_id: 'req-42' }))} />);
    expect(screen.getByRole('alert').textContent).toContain('Reference: req-42');
  });

  it('asks again with Retry', () => {
    const refetch = vi.fn();
    renderWithQuery(<ErrorState title="Failed." read={read(new HttpError(503, null), refetch)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });
});

/** A read that fails until `failing` is false: what QueryState shows for each answer. */
function Probe({ answer }: { answer: () => Promise<string> }) {
  const query = useQuery({ queryKey: ['probe'], queryFn: answer });
  return (
    <QueryState query={query} loading="Loading the probe" failed="The probe could not be loaded.">
      {(data) => <p>Status: {data}</p>}
    </QueryState>
  );
}

describe('QueryState', () => {
  it('never shows a failed read as loaded: the error state, then the data once Retry succeeds', async () => {
    let failing = true;
    const answer = vi.fn(async () => {
      if (failing) throw new HttpError(502, { detail: 'Bad gateway' });
      return 'OK';
    });
    renderWithQuery(<Probe answer={answer} />);
    expect(screen.getByRole('status', { name: 'Loading the probe' })).toBeTruthy();
    await screen.findByText('The probe could not be loaded.');
    expect(screen.queryByText(/Status:/)).toBeNull();
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('Status: OK');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(answer).toHaveBeenCalledTimes(2);
  });
});
