import type { TCanaryStatus } from '@afterword/worker/contracts/canary';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useNow } from '../../lib/use-now';
import { renderWithRouter } from '../../test-utils/render-with-router';
import { CanarySummary } from './canary-summary';
import { countdownView } from './health';

const LAST = '2026-05-14T08:00:00.000Z';
const LAST_MS = Date.parse(LAST);
const HOUR = 3_600_000;

const status: TCanaryStatus = {
  last_check_in: LAST,
  interval_seconds: 10 * 3600,
  missed: false,
  deadline: '2026-05-14T18:00:00.000Z',
  misses: 0,
  status: 'active',
  canary_id: 'c1',
  schedule: null,
  paused_until: null,
};

describe('countdownView', () => {
  it('is Active above 20 % left, Grace under it, Missed from the deadline on', () => {
    const at = (ms: number) => countdownView(LAST, 36_000, ms)!;
    expect(at(LAST_MS).health).toBe('Active');
    expect(at(LAST_MS).fractionLeft).toBe(1);
    expect(at(LAST_MS + 8 * HOUR - 1).health).toBe('Active');
    expect(at(LAST_MS + 8 * HOUR).health).toBe('Grace'); // exactly 20 % left
    expect(at(LAST_MS + 10 * HOUR - 1).health).toBe('Grace');
    expect(at(LAST_MS + 10 * HOUR).health).toBe('Missed');
    expect(at(LAST_MS + 10 * HOUR).remainingMs).toBe(0);
    expect(at(LAST_MS + 5 * HOUR).fractionLeft).toBeCloseTo(0.5);
    expect(at(LAST_MS).graceFraction).toBeCloseTo(0.2);
  });

  it('shows a simulated miss as Missed with nothing left', () => {
    expect(countdownView(LAST, 36_000, LAST_MS, true)).toMatchObject({ health: 'Missed', remainingMs: 0, fractionLeft: 0 });
  });

  it('has nothing to show without a valid check-in time', () => {
    expect(countdownView('not a date', 36_000, LAST_MS)).toBeNull();
  });
});

function LiveSummary({ data = status }: { data?: TCanaryStatus }) {
  const nowMs = useNow();
  return <CanarySummary status={data} nowMs={nowMs} simulatedMiss={false} onHeartbeat={() => undefined} heartbeatPending={false} />;
}

describe('CanarySummary', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: false }));
  afterEach(() => vi.useRealTimers());

  const meter = () => screen.getByRole('meter', { name: 'Time left before the deadline' });
  const remaining = () => document.querySelector('.canary-summary__remaining')?.textContent;

  it('ticks every second and moves from Active to Grace to Missed', async () => {
    vi.setSystemTime(LAST_MS + 8 * HOUR - 2000); // 2 h 0 min 02 s left
    render(<LiveSummary />);
    expect(screen.getByText('Active')).toBeTruthy();
    expect(remaining()).toBe('2 h 0 min 02 s');
    expect(screen.getByText('every 10 hours')).toBeTruthy();

    await act(async () => void vi.advanceTimersByTime(1000));
    expect(remaining()).toBe('2 h 0 min 01 s');
    await act(async () => void vi.advanceTimersByTime(1000));
    expect(remaining()).toBe('2 h 0 min 00 s');
    expect(screen.getByText('Grace')).toBeTruthy();
    expect(meter().getAttribute('aria-valuenow')).toBe('20');

    await act(async () => void vi.advanceTimersByTime(2 * HOUR));
    expect(screen.getByText('Missed')).toBeTruthy();
    expect(remaining()).toBe('None. The deadline has passed.');
    expect(meter().getAttribute('aria-valuenow')).toBe('0');
    expect(screen.getByRole('button', { name: 'Heartbeat' })).toBeTruthy();
  });

  it('links to Canary Status when there is no canary', async () => {
    vi.useRealTimers();
    const empty: TCanaryStatus = {
      last_check_in: null,
      interval_seconds: null,
      missed: false,
      deadline: null,
      misses: 0,
      status: null,
      canary_id: null,
      schedule: null,
      paused_until: null,
    };
    renderWithRouter(() => <LiveSummary data={empty} />, '/app');
    const link = await screen.findByRole('link', { name: /Canary Status/ });
    expect(link.getAttribute('href')).toBe('/app/canary-status');
    expect(screen.queryByRole('button', { name: 'Heartbeat' })).toBeNull();
  });
});
