import { describe, expect, it } from 'vitest';
import { hoursToIntervalSeconds } from './interval-hours';

describe('hoursToIntervalSeconds', () => {
  it('converts hours to whole seconds', () => {
    expect(hoursToIntervalSeconds('1.5')).toBe(5400);
    expect(hoursToIntervalSeconds('24')).toBe(86_400);
    expect(hoursToIntervalSeconds(' 0.5 ')).toBe(1800);
    expect(hoursToIntervalSeconds('0.0001')).toBe(0); // rounds; the server's bounds reject it, see the form
    expect(hoursToIntervalSeconds('1.00001')).toBe(3600);
  });

  it.each(['', '   ', '0', '-1', '-0.5', 'abc', '1h', 'NaN', 'Infinity'])('rejects %j', (value) => {
    expect(hoursToIntervalSeconds(value)).toBeNull();
  });
});
