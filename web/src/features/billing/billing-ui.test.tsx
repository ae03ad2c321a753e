import type { Meter } from '@afterword/worker/contracts/billing';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { chargeSentence } from './checkout-summary';
import { MeterBars } from './meter-bars';

describe('the charge in words', () => {
  it('says how often and how long', () => {
    expect(chargeSentence({ amount_cents: 4900, interval: 'year', years: null })).toBe('$49 every year, until you cancel');
    expect(chargeSentence({ amount_cents: 299, interval: 'month', years: null })).toBe('$2.99 every month, until you cancel');
    expect(chargeSentence({ amount_cents: 9900, interval: null, years: 5 })).toBe('$99 once, covering 5 years');
    expect(chargeSentence({ amount_cents: 34900, interval: null, years: null })).toBe('$349 once, for life');
  });
});

describe('the meter bars', () => {
  const meters: Meter[] = [
    { key: 'canaries', label: 'Canaries', used: 4, limit: 3, resets_at: null },
    { key: 'storage_bytes', label: 'Storage', used: 500_000_000, limit: 1_000_000_000, resets_at: null },
    { key: 'api_calls', label: 'API calls this month', used: 7, limit: null, resets_at: null },
    { key: 'voice_minutes_per_session', label: 'Voice minutes per session', used: null, limit: 5, resets_at: null },
  ];

  it('shows each meter in words with a bar where it has a limit, and says that nothing over it is removed', () => {
    render(<MeterBars meters={meters} />);
    expect(screen.getByTestId('meter-canaries').textContent).toContain('4 of 3 — over the plan: nothing is removed, creating more is paused');
    expect(screen.getByTestId('meter-storage_bytes').textContent).toMatch(/500 MB of 1 GB/);
    expect(screen.getByTestId('meter-api_calls').textContent).toContain('7 used, unlimited');
    expect(screen.getByTestId('meter-voice_minutes_per_session').textContent).toContain('5 per session');
    expect(document.querySelectorAll('meter')).toHaveLength(2);
  });
});
