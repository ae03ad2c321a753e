/*
 * Every time the app shows a person goes through here: in their zone (their profile's `time_zone`, else
 * the browser's) and their browser's locale, with a relative phrase where "how long from now" is what
 * matters. The API speaks ISO 8601; a page passes those strings (or epoch ms) straight in.
 */

type Instant = string | number | Date;

let profileZone: string | undefined;

/**
 * The zone times are shown in: the signed-in person's profile zone (set by the /app layout once the
 * profile is read), else the browser's. An unknown zone is ignored rather than breaking every page.
 */
export function setDisplayTimeZone(zone: string | null | undefined): void {
  profileZone = zone && isTimeZone(zone) ? zone : undefined;
}

export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
export const displayTimeZone = (): string => profileZone ?? browserTimeZone();

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: 'dateTime' | 'date' | 'zoned', timeZone: string): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone}`;
  let f = formats.get(key);
  if (!f) {
    const date: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone };
    const time: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
    f = new Intl.DateTimeFormat(undefined, kind === 'date' ? date : kind === 'dateTime' ? { ...date, ...time } : { ...date, ...time, timeZoneName: 'short' });
    formats.set(key, f);
  }
  return f;
}

function toMs(value: Instant): number {
  if (value instanceof Date) return value.getTime();
  return typeof value === 'number' ? value : Date.parse(value);
}

/**
 * 'Tue, 24 Nov 2026, 09:00' in the display zone. When that zone is not the browser's (a profile set to
 * another zone), the zone is named ('…, 09:00 CET'), so nobody reads another zone's clock as their own.
 */
export function formatDateTime(value: Instant): string {
  const ms = toMs(value);
  if (!Number.isFinite(ms)) return '—';
  const zone = displayTimeZone();
  return formatter(zone === browserTimeZone() ? 'dateTime' : 'zoned', zone).format(ms);
}

/** 'Tue, 24 Nov 2026, 09:00 CET': always with the zone, for a `title` or anywhere the zone must be said. */
export function formatDateTimeWithZone(value: Instant): string {
  const ms = toMs(value);
  return Number.isFinite(ms) ? formatter('zoned', displayTimeZone()).format(ms) : '—';
}

/** '09:00' (or '9:00 AM', as the reader's locale writes it) in the display zone: a time on a line that already says the day. */
export function formatClock(value: Instant): string {
  const ms = toMs(value);
  return Number.isFinite(ms) ? new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone: displayTimeZone() }).format(ms) : '—';
}

/** 'Tue, 24 Nov 2026' in the display zone. */
export function formatDate(value: Instant): string {
  const ms = toMs(value);
  return Number.isFinite(ms) ? formatter('date', displayTimeZone()).format(ms) : '—';
}

let relative: Intl.RelativeTimeFormat | undefined;

/** 'just now', '5 minutes ago', 'in 3 hours', 'yesterday', 'in 2 months' — against the given now. */
export function formatRelative(value: Instant, nowMs: number): string {
  const ms = toMs(value);
  if (!Number.isFinite(ms)) return '—';
  relative ??= new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const diffSeconds = Math.round((ms - nowMs) / 1000);
  const abs = Math.abs(diffSeconds);
  if (abs < 45) return 'just now';
  if (abs < 3600) return relative.format(Math.round(diffSeconds / 60), 'minute');
  if (abs < 86_400) return relative.format(Math.round(diffSeconds / 3600), 'hour');
  if (abs < 30 * 86_400) return relative.format(Math.round(diffSeconds / 86_400), 'day');
  if (abs < 365 * 86_400) return relative.format(Math.round(diffSeconds / (30 * 86_400)), 'month');
  return relative.format(Math.round(diffSeconds / (365 * 86_400)), 'year');
}

/** 'Tue, 24 Nov 2026, 09:00 (in 3 hours)': the moment and how far it is, for deadlines and schedules. */
export function formatWhen(value: Instant, nowMs: number): string {
  const ms = toMs(value);
  return Number.isFinite(ms) ? `${formatDateTime(ms)} (${formatRelative(ms, nowMs)})` : '—';
}

/** A time as the server writes it inside its sentences (worker/src/lib/human-time.ts): 'Tue, 24 Nov 2026, 00:29 UTC'. */
const SERVER_UTC_TIME = /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{1,2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}), (\d{2}):(\d{2}) UTC\b/g;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A server sentence (a history reason, an activity summary) with its UTC times rewritten in the
 * reader's zone and locale, so one page does not mix two ways of writing a time.
 */
export function localizeServerTimes(text: string): string {
  return text.replace(SERVER_UTC_TIME, (_, d: string, mon: string, y: string, h: string, mi: string) =>
    formatDateTime(Date.UTC(Number(y), MONTHS.indexOf(mon), Number(d), Number(h), Number(mi))),
  );
}
