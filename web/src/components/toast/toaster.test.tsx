import { act, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast, TOAST_LIMIT } from './toast-store';
import { toastStore } from './toast-store';
import { Toaster } from './toaster';

function visibleMessages() {
  const region = screen.getByRole('region', { name: 'Notifications' });
  return within(region)
    .queryAllByRole('listitem')
    .map((li) => li.querySelector('.toast__message')?.textContent);
}

describe('Toaster', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    render(<Toaster />);
  });
  afterEach(() => {
    act(() => toastStore.reset());
    vi.useRealTimers();
  });

  it('keeps at most 20 toasts and drops the oldest first', () => {
    act(() => {
      for (let i = 1; i <= 25; i++) toast.loading(`Toast ${i}`);
    });
    const messages = visibleMessages();
    expect(TOAST_LIMIT).toBe(20);
    expect(messages).toHaveLength(20);
    expect(messages[0]).toBe('Toast 6');
    expect(messages[19]).toBe('Toast 25');
  });

  it('shows a success toast for 2 seconds', () => {
    act(() => void toast.success('Check-in received'));
    act(() => vi.advanceTimersByTime(1999));
    expect(visibleMessages()).toEqual(['Check-in received']);
    act(() => vi.advanceTimersByTime(1));
    expect(visibleMessages()).toEqual([]);
  });

  it('shows blank and error toasts for 4 seconds', () => {
    act(() => {
      toast.blank('Saved locally');
      toast.error('Failed to create message');
    });
    act(() => vi.advanceTimersByTime(3999));
    expect(visibleMessages()).toEqual(['Saved locally', 'Failed to create message']);
    act(() => vi.advanceTimersByTime(1));
    expect(visibleMessages()).toEqual([]);
  });

  it('keeps a loading toast until it is replaced, then uses the new kind’s duration', () => {
    let id = '';
    act(() => {
      id = toast.loading('AI model training in progress');
    });
    act(() => vi.advanceTimersByTime(60_000));
    expect(visibleMessages()).toEqual(['AI model training in progress']);
    act(() => void toast.success('AI model training complete', { id }));
    expect(visibleMessages()).toEqual(['AI model training complete']);
    act(() => vi.advanceTimersByTime(2000));
    expect(visibleMessages()).toEqual([]);
  });

  it('announces toasts through a polite live region at the top right', () => {
    const list = screen.getByRole('region', { name: 'Notifications' }).querySelector('ol');
    expect(list?.getAttribute('aria-live')).toBe('polite');
  });
});
