import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MISSED_TITLE_PREFIX, setPageTitle } from '../../lib/document-title';
import { useCheckInAlerts } from './use-check-in-alerts';

const T0 = Date.parse('2026-05-14T09:00:00Z');
const MIN = 60_000;

/** A stand-in for the browser's Notification that records what was shown. */
function stubNotification(permission: NotificationPermission) {
  const shown: Array<{ title: string; body?: string }> = [];
  const requestPermission = vi.fn(async () => permission);
  class FakeNotification {
    static permission = permission;
    static requestPermission = requestPermission;
    constructor(title: string, options?: NotificationOptions) {
      shown.push({ title, body: options?.body });
    }
  }
  vi.stubGlobal('Notification', FakeNotification);
  return { shown, requestPermission };
}

describe('useCheckInAlerts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    setPageTitle('Dashboard');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('asks for permission on load only while the browser has no answer', () => {
    const asked = stubNotification('default');
    renderHook(() => useCheckInAlerts(null));
    expect(asked.requestPermission).toHaveBeenCalledTimes(1);
    vi.unstubAllGlobals();
    const granted = stubNotification('granted');
    renderHook(() => useCheckInAlerts(null));
    expect(granted.requestPermission).not.toHaveBeenCalled();
  });

  it('reminds 60 s before the deadline, reports the miss once, and warns in the title until a check-in', () => {
    const { shown } = stubNotification('granted');
    const deadline = T0 + 10 * MIN;
    const { rerender } = renderHook(({ d }) => useCheckInAlerts(d), { initialProps: { d: deadline } });

    act(() => void vi.advanceTimersByTime(9 * MIN - 1));
    expect(shown).toEqual([]);
    act(() => void vi.advanceTimersByTime(1));
    expect(shown).toEqual([{ title: 'Upcoming check-in', body: 'Please confirm your status soon.' }]);
    expect(document.title).toBe('Dashboard · Afterword');

    act(() => void vi.advanceTimersByTime(MIN));
    expect(shown.at(-1)).toEqual({ title: 'Missed check-in', body: 'Your messages may be released.' });
    expect(document.title).toBe(`${MISSED_TITLE_PREFIX}Dashboard · Afterword`);
    expect(document.title.startsWith('⚠ Check-in missed')).toBe(true);

    act(() => void vi.advanceTimersByTime(3 * 86_400_000));
    rerender({ d: deadline }); // a refetch with the same deadline changes nothing
    expect(shown.filter((n) => n.title === 'Missed check-in')).toHaveLength(1);

    // A check-in moves the deadline: the title is restored and both alerts are armed again.
    const next = Date.now() + 5 * MIN;
    rerender({ d: next });
    expect(document.title).toBe('Dashboard · Afterword');
    act(() => void vi.advanceTimersByTime(5 * MIN));
    expect(shown.map((n) => n.title)).toEqual(['Upcoming check-in', 'Missed check-in', 'Upcoming check-in', 'Missed check-in']);
  });

  it('keeps the warning across page title changes and drops it on unmount', () => {
    stubNotification('granted');
    const { unmount } = renderHook(() => useCheckInAlerts(T0 - 1));
    expect(document.title).toBe(`${MISSED_TITLE_PREFIX}Dashboard · Afterword`);
    setPageTitle('Canary Status');
    expect(document.title).toBe(`${MISSED_TITLE_PREFIX}Canary Status · Afterword`);
    unmount();
    expect(document.title).toBe('Canary Status · Afterword');
  });

  it("warns in the title while the server's missed flag is set, and shows nothing without permission", () => {
    const { shown } = stubNotification('denied');
    renderHook(() => useCheckInAlerts(T0 + 86_400_000, true));
    expect(document.title.startsWith(MISSED_TITLE_PREFIX)).toBe(true);
    act(() => void vi.advanceTimersByTime(2 * 86_400_000));
    expect(shown).toEqual([]);
  });
});
