import type { TCheckInLink, TCheckInResult } from '@afterword/worker/contracts/canary';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../lib/api-error';
import { renderWithRouter } from '../../test-utils/render-with-router';
import { CheckInLinkView, type CheckInLinkLookup } from './check-in-link';

const ready: TCheckInLink = { canary_name: 'Daily', state: 'ready', expires_at: '2026-12-04T09:00:00.000Z', used_at: null };
const checkedIn: TCheckInResult = {
  checked_in: 1,
  last_check_in: '2026-11-27T09:00:00.000Z',
  canaries: [{ id: 'c1', deadline: '2026-11-28T09:00:00.000Z' }],
};

function show(lookup: CheckInLinkLookup, onCheckIn = vi.fn(async () => checkedIn)) {
  renderWithRouter(() => <CheckInLinkView lookup={lookup} onCheckIn={onCheckIn} />);
  return onCheckIn;
}

describe('the page a warning’s check-in link opens', () => {
  it('checks in only when the button is pressed, then says when the next check-in is due', async () => {
    const onCheckIn = show({ kind: 'found', link: ready });
    expect(await screen.findByText(/Press the button to check in your canary “Daily”/)).toBeTruthy();
    expect(onCheckIn).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'I’m here — check in' }));
    await waitFor(() => expect(onCheckIn).toHaveBeenCalledTimes(1));
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('Checked in.');
    expect(status.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-28T09:00:00.000Z');
  });

  it('shows the server’s words when the press is refused, and keeps the button', async () => {
    const refused = vi.fn(async (): Promise<TCheckInResult> => {
      throw new HttpError(409, { detail: 'This check-in link was already used. Sign in to check in again.' });
    });
    show({ kind: 'found', link: ready }, refused);
    fireEvent.click(await screen.findByRole('button', { name: 'I’m here — check in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This check-in link was already used. Sign in to check in again.');
    expect(screen.getByRole('button', { name: 'I’m here — check in' })).toBeTruthy();
  });

  it('a used, an expired and an unknown link offer no button, and point to sign-in', async () => {
    for (const lookup of [
      { kind: 'found', link: { ...ready, state: 'used', used_at: '2026-11-27T10:00:00.000Z' } },
      { kind: 'found', link: { ...ready, state: 'expired' } },
      { kind: 'not-found' },
    ] as CheckInLinkLookup[]) {
      const { unmount } = renderWithRouter(() => <CheckInLinkView lookup={lookup} onCheckIn={vi.fn()} />);
      expect(await screen.findByRole('link', { name: 'Sign in' })).toBeTruthy();
      expect(screen.queryByRole('button')).toBeNull();
      unmount();
    }
  });
});
