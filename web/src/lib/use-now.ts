import { useEffect, useState } from 'react';

/**
 * docs/product.md "The app shell and navigation": the clock ticks every second. Reads `Date.now()` so a faked
 * clock drives it.
 */
export const CLOCK_TICK_MS = 1000;

export function useNow(tickMs: number = CLOCK_TICK_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(id);
  }, [tickMs]);
  return now;
}
