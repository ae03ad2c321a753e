import { describe, expect, it } from 'vitest';
import { humanTime } from '../src/lib/human-time';

const at = Date.parse('2026-11-24T00:29:26.385Z');

describe('times in server-written sentences', () => {
  it('reads as a date and a time with its zone, never as ISO', () => {
    expect(humanTime(at)).toBe('Tue, 24 Nov 2026, 00:29 UTC');
  });

  it("can be written in the reader's own zone", () => {
    expect(humanTime(at, 'Europe/Berlin')).toBe('Tue, 24 Nov 2026, 01:29 CET');
  });

  it('falls back to UTC for a zone it does not know, rather than failing a notice', () => {
    expect(humanTime(at, 'Mars/Olympus_Mons')).toBe('Tue, 24 Nov 2026, 00:29 UTC');
  });
});
