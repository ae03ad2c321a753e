import { formatDateTime } from '../../lib/format-time';

/** 'Never' for a key that has not been used yet. */
export const formatLastUsed = (at: string | null) => (at ? formatDateTime(at) : 'Never');

/** 1234 → '1,234' in the reader's locale. */
export const formatCount = (n: number) => new Intl.NumberFormat().format(n);

/** 182 → '182 ms', 2345 → '2.3 s'; null → '—'. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(Math.round(ms / 100) / 10).toFixed(1)} s`;
}

/** A key's visible start, shown so it can be recognised: `afw_test_Ab12…`. */
export const keyPrefix = (prefix: string) => (prefix.endsWith('…') ? prefix : `${prefix}…`);
