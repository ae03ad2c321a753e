import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PauseControl, pauseEnd } from './pause-control';

const NOW = new Date(2026, 10, 28, 12, 0).getTime(); // local noon, 28 November 2026

describe('PauseControl', () => {
  it('pauses until the start of the chosen day', async () => {
    const onPause = vi.fn(async () => true);
    render(<PauseControl name="Walk" pausedUntil={null} nowMs={NOW} onPause={onPause} onResume={vi.fn()} pending={false} />);
    fireEvent.change(screen.getByLabelText(/^Pause for vacation until/), { target: { value: '2026-12-20' } });
    fireEvent.click(screen.getByRole('button', { name: /Pause for vacation/ }));
    await waitFor(() => expect(onPause).toHaveBeenCalledWith(new Date(2026, 11, 20).toISOString()));
  });

  it('refuses a day more than 60 days ahead, or today, before sending', async () => {
    const onPause = vi.fn(async () => true);
    render(<PauseControl name="Walk" pausedUntil={null} nowMs={NOW} onPause={onPause} onResume={vi.fn()} pending={false} />);
    fireEvent.change(screen.getByLabelText(/^Pause for vacation until/), { target: { value: '2027-02-10' } });
    fireEvent.click(screen.getByRole('button', { name: /Pause for vacation/ }));
    expect(await screen.findByText('Choose a day from tomorrow to 60 days ahead.')).toBeTruthy();
    expect(pauseEnd('2026-11-28', NOW)).toBeNull();
    expect(onPause).not.toHaveBeenCalled();
  });

  it('shows a pause and ends it on request', () => {
    const onResume = vi.fn(async () => true);
    render(<PauseControl name="Walk" pausedUntil="2026-12-20T00:00:00.000Z" nowMs={NOW} onPause={vi.fn()} onResume={onResume} pending={false} />);
    expect(screen.getByText(/Paused for a vacation until/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /End the pause now/ }));
    expect(onResume).toHaveBeenCalled();
  });
});
