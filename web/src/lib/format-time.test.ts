import { afterEach, describe, expect, it } from 'vitest';
import {
  browserTimeZone,
  formatDate,
  formatDateTime,
  formatDateTimeWithZone,
  formatRelative,
  formatWhen,
  localizeServerTimes,
  setDisplayTimeZone,
} from './format-time';

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const at = '2026-11-24T00:29:26.385Z';

describe('the time formatter', () => {
  afterEach(() => setDisplayTimeZone(null));

  it('never shows an ISO string: a weekday, a day, a month, a year and a time', () => {
    const text = formatDateTime(at);
    expect(text).not.toMatch(ISO);
    expect(text).toMatch(/2026/);
    expect(text).toMatch(/Nov/);
  });

  it("shows times in the profile's zone, naming it when it is not the browser's", () => {
    setDisplayTimeZone(browserTimeZone() === 'Asia/Tokyo' ? 'Europe/Berlin' : 'Asia/Tokyo');
    const other = formatDateTime(at);
    setDisplayTimeZone(null);
    expect(other).not.toBe(formatDateTime(at));
    expect(other).toMatch(/GMT\+\d|JST|CET/);
  });

  it("reads the same instant in another zone as that zone's wall clock", () => {
    setDisplayTimeZone('Asia/Tokyo');
    expect(formatDateTime(at)).toMatch(/09:29/); // 00:29 UTC is 09:29 in Tokyo
    expect(formatDate(at)).toMatch(/24/);
    setDisplayTimeZone('America/Los_Angeles');
    expect(formatDateTime(at)).toMatch(/04:29|4:29/); // the evening before, 16:29 → '04:29 PM' or '16:29'
    expect(formatDate(at)).toMatch(/23/);
  });

  it('ignores an unknown zone instead of breaking every page', () => {
    setDisplayTimeZone('Mars/Olympus_Mons');
    expect(formatDateTime(at)).toBe(formatDateTime(Date.parse(at)));
    expect(formatDateTimeWithZone(at)).not.toBe('—');
  });

  it('says how far a time is, past or future', () => {
    const now = Date.parse('2026-05-14T09:00:00Z');
    expect(formatRelative('2026-05-14T08:59:30Z', now)).toBe('just now');
    expect(formatRelative('2026-05-14T08:55:00Z', now)).toBe('5 minutes ago');
    expect(formatRelative('2026-05-14T06:00:00Z', now)).toBe('3 hours ago');
    expect(formatRelative('2026-05-14T12:00:00Z', now)).toBe('in 3 hours');
    expect(formatRelative('2026-05-13T09:00:00Z', now)).toBe('yesterday');
    expect(formatRelative('2027-05-14T09:00:00Z', now)).toBe('next year');
    expect(formatWhen('2026-05-14T12:00:00Z', now)).toBe(`${formatDateTime('2026-05-14T12:00:00Z')} (in 3 hours)`);
  });

  it('shows a dash for something that is not a time', () => {
    expect(formatDateTime('soon')).toBe('—');
    expect(formatRelative('soon', 0)).toBe('—');
  });
});

describe("the server's sentences", () => {
  afterEach(() => setDisplayTimeZone(null));

  it("read their UTC times in the reader's zone and locale", () => {
    setDisplayTimeZone('Asia/Tokyo');
    const text = 'Created. Waiting for 3 missed check-ins; never before Tue, 24 Nov 2026, 00:29 UTC.';
    expect(localizeServerTimes(text)).toBe(`Created. Waiting for 3 missed check-ins; never before ${formatDateTime('2026-11-24T00:29:00Z')}.`);
    expect(localizeServerTimes(text)).toMatch(/09:29/);
    expect(localizeServerTimes('No time here.')).toBe('No time here.');
  });
});
