import { useCallback, useRef, useState } from 'react';

/**
 * One submission at a time (docs/product.md "Accounts and sign-in": a repeated submit is ignored). `run` does
 * nothing while a previous run is pending; `pending` drives the disabled button and its "…ing" label.
 */
export function useSingleFlight() {
  const [pending, setPending] = useState(false);
  // A ref, not state: a second click in the same tick must see the first one at once.
  const inFlight = useRef(false);
  const isBusy = useCallback(() => inFlight.current, []);
  const run = useCallback(async (task: () => Promise<void>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setPending(true);
    try {
      await task();
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }, []);
  return { pending, run, isBusy };
}
