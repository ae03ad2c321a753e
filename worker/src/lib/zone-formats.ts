/**
 * Date formatters by time zone, each built once: building an `Intl.DateTimeFormat` costs far more than using one
 * (it loads the zone's rules), and the server formats times in sentences and reads owners' clocks for quiet hours
 * on every notice (docs/performance.md "The Worker's own CPU"). There are a few hundred zones at most; an unknown
 * one throws from the constructor and is not kept.
 */
export function formatterPerZone(options: Omit<Intl.DateTimeFormatOptions, 'timeZone'>, locale = 'en-GB'): (timeZone: string) => Intl.DateTimeFormat {
  const byZone = new Map<string, Intl.DateTimeFormat>();
  return (timeZone) => {
    let formatter = byZone.get(timeZone);
    if (!formatter) {
      formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone });
      byZone.set(timeZone, formatter);
    }
    return formatter;
  };
}
