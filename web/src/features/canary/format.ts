/** Plain-language times for canaries: intervals, countdowns, deadlines and "5 minutes ago". */

const trim = (n: number) => String(Math.round(n * 100) / 100);
const unit = (n: number, word: string) => (n === 1 ? word : `${trim(n)} ${word}s`);

/** 86400 → 'every 24 hours', 3600 → 'every hour', 5400 → 'every 1.5 hours', 172800 → 'every 2 days'. */
export function formatInterval(seconds: number): string {
  if (seconds >= 172_800 && seconds % 86_400 === 0) return `every ${unit(seconds / 86_400, 'day')}`;
  if (seconds >= 3600) return `every ${unit(seconds / 3600, 'hour')}`;
  if (seconds >= 60) return `every ${unit(seconds / 60, 'minute')}`;
  return `every ${unit(seconds, 'second')}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A countdown: '3 d 4 h 5 min', '23 h 59 min 58 s', '4 min 05 s', '0 s' once the time is up. */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (days > 0) return `${days} d ${hours} h ${minutes} min`;
  if (hours > 0) return `${hours} h ${minutes} min ${pad(seconds)} s`;
  if (minutes > 0) return `${minutes} min ${pad(seconds)} s`;
  return `${seconds} s`;
}

const dateTime = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** 'Tue, 14 May 2026, 09:00' in the reader's locale. */
export function formatDateTime(value: string | number): string {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? dateTime.format(ms) : '—';
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** 'just now', '5 minutes ago', 'yesterday', '3 days ago' (or 'in 2 hours' for future times). */
export function formatRelative(value: string | number, nowMs: number): string {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) return '—';
  const diffSeconds = Math.round((ms - nowMs) / 1000);
  const abs = Math.abs(diffSeconds);
  if (abs < 45) return 'just now';
  if (abs < 3600) return relative.format(Math.round(diffSeconds / 60), 'minute');
  if (abs < 86_400) return relative.format(Math.round(diffSeconds / 3600), 'hour');
  if (abs < 30 * 86_400) return relative.format(Math.round(diffSeconds / 86_400), 'day');
  return relative.format(Math.round(diffSeconds / (30 * 86_400)), 'month');
}
