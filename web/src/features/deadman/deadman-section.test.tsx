import type { TDeadman } from '@afterword/worker/contracts/deadman';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DEADMAN_CONFIRM_TEXT, DEADMAN_HOURS_ERROR, DeadmanSection } from './deadman-section';

const NOW = Date.parse('2026-05-14T09:00:00Z');

function renderSection(deadman: TDeadman = { active: false, hours: null, deadline: null }) {
  const onSetup = vi.fn(async (_hours: number) => true);
  const onCancel = vi.fn(async () => true);
  render(<DeadmanSection deadman={deadman} nowMs={NOW} onSetup={onSetup} onCancel={onCancel} pending={false} />);
  const submit = (value: string) => {
    fireEvent.change(screen.getByLabelText(/^Hours without a check-in/), { target: { value } });
    fireEvent.click(screen.getByRole('button', { name: "Set up dead-man's switch" }));
  };
  return { onSetup, onCancel, submit };
}

describe('DeadmanSection', () => {
  it('asks for hours, then confirms with the exact product text before setting up', async () => {
    const { onSetup, submit } = renderSection();
    submit('48');
    const dialog = await screen.findByRole('dialog', { name: DEADMAN_CONFIRM_TEXT });
    expect(DEADMAN_CONFIRM_TEXT).toBe('This will delete your account if you miss check-ins. Continue?');
    expect(dialog.textContent).toContain('This will delete your account if you miss check-ins. Continue?');
    expect(dialog.textContent).toContain('48 hours');
    expect(onSetup).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onSetup).toHaveBeenCalledWith(48));
  });

  it.each(['0', '-3', 'abc', '', '8761'])('does not ask or send for %j', async (value) => {
    const { onSetup, submit } = renderSection();
    submit(value);
    expect(await screen.findByText(DEADMAN_HOURS_ERROR)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onSetup).not.toHaveBeenCalled();
  });

  it('shows the deadline when on, and cancels', async () => {
    const { onCancel } = renderSection({ active: true, hours: 72, deadline: '2026-05-17T09:00:00Z' });
    expect(screen.getByText('On')).toBeTruthy();
    expect(screen.getByText(/within 72 hours/)).toBeTruthy();
    expect(document.querySelector('time[datetime="2026-05-17T09:00:00Z"]')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: "Cancel dead-man's switch" }));
    await waitFor(() => expect(onCancel).toHaveBeenCalledTimes(1));
  });
});
