import { describe, expect, it } from 'vitest';
import { localMinutes, quietHoursRemainingMs } from '../src/domains/owner-notices/quiet-hours';

const at = new Date('2026-11-24T22:30:15.000Z');
const NIGHT = { start: '22:00', end: '07:00' };

describe("quiet hours, read on the owner's own clock", () => {
  it('reads the wall-clock minutes of the zone, every time it is asked', () => {
    expect(localMinutes(at, 'UTC')).toBe(22 * 60 + 30);
    expect(localMinutes(at, 'Europe/Berlin')).toBe(23 * 60 + 30);
    expect(localMinutes(at, 'Asia/Tokyo')).toBe(7 * 60 + 30);
    // Asked again (the zone's clock is kept): the same answers.
    expect(localMinutes(at, 'Europe/Berlin')).toBe(23 * 60 + 30);
    expect(localMinutes(new Date('2026-07-01T12:00:00Z'), 'Europe/Berlin')).toBe(14 * 60);
  });

  it('reads a zone it does not know as UTC, before and after knowing others', () => {
    expect(localMinutes(at, 'Mars/Olympus_Mons')).toBe(22 * 60 + 30);
    expect(localMinutes(at, 'Mars/Olympus_Mons')).toBe(22 * 60 + 30);
  });

  it('waits until the end of the night in the zone, and not at all outside it', () => {
    expect(quietHoursRemainingMs(at, NIGHT, 'Europe/Berlin')).toBe((7 * 60 + 30) * 60_000 - 15_000);
    expect(quietHoursRemainingMs(at, NIGHT, 'Asia/Tokyo')).toBe(0);
  });
});
