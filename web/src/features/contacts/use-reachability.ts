import { useEffect, useState } from 'react';
import type { Reachability } from './types';

/** Reads how a picked contact can be reached; null until known, for nobody, or when the read failed. */
export function useReachability(lookup: ((userId: string) => Promise<Reachability>) | undefined, userId: string | null): Reachability | null {
  const [found, setFound] = useState<Reachability | null>(null);
  useEffect(() => {
    setFound(null);
    if (!lookup || !userId) return;
    let live = true;
    lookup(userId).then(
      (r) => live && setFound(r),
      // Not a contact, or offline: the form then says only what is always true (the inbox holds it).
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [lookup, userId]);
  return found;
}
