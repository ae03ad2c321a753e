import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ONBOARDING_KEY } from '../../lib/session';
import { WelcomeModal } from './welcome-modal';

describe('WelcomeModal', () => {
  it('shows on the first visit with the three bullets and keeps focus inside', async () => {
    render(<WelcomeModal />);
    const dialog = await screen.findByRole('dialog', { name: 'Welcome to Afterword' });
    expect(dialog.querySelectorAll('li')).toHaveLength(3);
    expect(dialog.textContent).toContain('Missing it starts delivery');
    expect(dialog.textContent).toContain('after a missed check-in or at a time you schedule');
    expect(dialog.textContent).toContain('encrypted for their intended recipients only');
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('stores the flag when closed and does not show again', async () => {
    const first = render(<WelcomeModal />);
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }));
    expect(localStorage.getItem(ONBOARDING_KEY)).toBe('true');
    expect(screen.queryByRole('dialog')).toBeNull();
    first.unmount();

    render(<WelcomeModal />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
