/**
 * docs/product.md "Canaries and check-ins": the interval is entered in hours, must be a number greater than 0
 * (otherwise nothing is sent) and is converted to whole seconds. 1.5 → 5400.
 */
export function hoursToIntervalSeconds(value: string): number | null {
  const text = value.trim();
  if (!text) return null;
  const hours = Number(text);
  if (!Number.isFinite(hours) || hours <= 0) return null;
  return Math.round(hours * 3600);
}
