/** The browser's own IANA time zone, e.g. 'Europe/Berlin' ('UTC' when it cannot tell). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every zone this browser knows, sorted, always including UTC and `include` (e.g. the saved one). */
export function timeZoneOptions(...include: string[]): string[] {
  let zones: string[] = [];
  try {
    zones = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  } catch {
    zones = [];
  }
  return [...new Set([...zones, 'UTC', ...include.filter(Boolean)])].sort((a, b) => a.localeCompare(b));
}

/**
 * The zone to prefill: the saved one, except that a server default of 'UTC' becomes this browser's
 * zone (the user still saves it themselves).
 */
export function suggestedTimeZone(saved: string, browser: string = browserTimeZone()): { zone: string; suggested: boolean } {
  if (saved === 'UTC' && browser !== 'UTC') return { zone: browser, suggested: true };
  return { zone: saved, suggested: false };
}
