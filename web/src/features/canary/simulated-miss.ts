import { useSyncExternalStore } from 'react';

/**
 * Test mode only (docs/product.md "Canaries and check-ins"): a missed check-in simulated in this browser.
 * Nothing is sent to the server; the dashboard shows Missed, and the alerts hook treats this instant as the deadline.
 * A check-in (or "End simulation") clears it.
 */
let simulatedAtMs: number | null = null;
const listeners = new Set<() => void>();

function emit(next: number | null) {
  simulatedAtMs = next;
  for (const listener of listeners) listener();
}

export const simulatedMiss = {
  start: () => emit(Date.now()),
  clear: () => {
    if (simulatedAtMs !== null) emit(null);
  },
  get: () => simulatedAtMs,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};

/** The instant a miss was simulated, or null when none is. */
export function useSimulatedMiss(): number | null {
  return useSyncExternalStore(simulatedMiss.subscribe, simulatedMiss.get, simulatedMiss.get);
}
