import { formatDateTime, formatDateTimeWithZone, formatRelative, formatWhen } from '../lib/format-time';

interface TimeProps {
  /** An ISO 8601 string from the API, or epoch ms. */
  value: string | number;
  /**
   * 'absolute' (default): 'Tue, 24 Nov 2026, 09:00'; 'relative': 'in 3 hours';
   * 'both': 'Tue, 24 Nov 2026, 09:00 (in 3 hours)'. The relative forms need `nowMs`.
   */
  show?: 'absolute' | 'relative' | 'both';
  nowMs?: number;
  className?: string;
}

/** A time as people read it, machine-readable in `dateTime`, with the full date and zone on hover. */
export function Time({ value, show = 'absolute', nowMs, className }: TimeProps) {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) return <span className={className}>—</span>;
  const now = nowMs ?? Date.now();
  const text = show === 'relative' ? formatRelative(ms, now) : show === 'both' ? formatWhen(ms, now) : formatDateTime(ms);
  return (
    <time className={className} dateTime={typeof value === 'string' ? value : new Date(ms).toISOString()} title={formatDateTimeWithZone(ms)}>
      {text}
    </time>
  );
}
