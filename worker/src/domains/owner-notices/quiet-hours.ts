import { formatterPerZone } from '../../lib/zone-formats';

/**
 * Quiet hours (docs/server-rules.md "Channels and notifications"): wall-clock HH:MM in the user's time zone;
 * start = end means none; start > end spans midnight (22:00–07:00). They delay owner notices, never releases.
 */
const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
};

/** The wall clock of a zone, hours and minutes. */
const clockOf = formatterPerZone({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** Minutes past local midnight of `at` in `timeZone` (an unknown zone reads as UTC). */
export function localMinutes(at: Date, timeZone: string): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = clockOf(timeZone).formatToParts(at);
  } catch {
    parts = clockOf('UTC').formatToParts(at);
  }
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

/**
 * Milliseconds until quiet hours end, or 0 when `at` is outside them. Measured in wall-clock minutes;
 * across a DST change the wake may be an hour off, and the caller simply checks again when it wakes.
 */
export function quietHoursRemainingMs(at: Date, quiet: { start: string; end: string }, timeZone: string): number {
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return 0;
  const now = localMinutes(at, timeZone);
  const inside = start < end ? now >= start && now < end : now >= start || now < end;
  if (!inside) return 0;
  const minutes = (end - now + 1440) % 1440;
  return minutes * 60_000 - at.getUTCSeconds() * 1000 - at.getUTCMilliseconds();
}
