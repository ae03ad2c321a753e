import { formatterPerZone } from './zone-formats';

/**
 * An instant as people read it in a sentence the server writes (history reasons, activity summaries,
 * notices, emails): "Tue, 24 Nov 2026, 00:29 UTC". The API's fields stay ISO 8601; only prose uses this.
 * Stored texts are read later, possibly after the reader moved zones, so they name their zone. A notice
 * addressed to one person may pass that person's profile `time_zone` ("Tue, 24 Nov 2026, 01:29 CET");
 * an unknown zone falls back to UTC rather than failing the send.
 */
export function humanTime(ms: number, timeZone = 'UTC'): string {
  try {
    return format(ms, timeZone);
  } catch {
    return format(ms, 'UTC');
  }
}

const sentenceTime = formatterPerZone({
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});

const format = (ms: number, timeZone: string) => sentenceTime(timeZone).format(ms);
