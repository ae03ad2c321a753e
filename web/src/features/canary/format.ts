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
