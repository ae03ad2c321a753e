import { describe, expect, it } from 'vitest';
import { formatInterval, formatRemaining } from './format';

describe('canary formatting', () => {
  it('writes intervals in plain words', () => {
    expect(formatInterval(86_400)).toBe('every 24 hours');
    expect(formatInterval(3600)).toBe('every hour');
    expect(formatInterval(5400)).toBe('every 1.5 hours');
    expect(formatInterval(172_800)).toBe('every 2 days');
    expect(formatInterval(60)).toBe('every minute');
    expect(formatInterval(90)).toBe('every 1.5 minutes');
  });

  it('counts down in days, hours, minutes and seconds, never below zero', () => {
    expect(formatRemaining(3 * 86_400_000 + 4 * 3_600_000 + 5 * 60_000)).toBe('3 d 4 h 5 min');
    expect(formatRemaining(86_399_000)).toBe('23 h 59 min 59 s');
    expect(formatRemaining(245_000)).toBe('4 min 05 s');
    expect(formatRemaining(9_999)).toBe('9 s');
    expect(formatRemaining(-5000)).toBe('0 s');
  });
});
