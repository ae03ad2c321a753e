import { useEffect, useRef, useState } from 'react';
import type { KeysApi } from '../e2ee/keys-api';

/** Whether a message to this recipient can be end-to-end encrypted, and if not, whose keys are missing. */
export type E2eeAvailability = 'available' | 'sender-has-no-keys' | 'recipient-has-no-keys';

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * End-to-end encryption is the default whenever it can be used: the form asks, for the recipient typed or
 * picked, whether both the sender and the recipient have keys (public keys only: nothing is unlocked).
 * Null while there is no whole user id to ask about, or the answer is on its way; a failed lookup is null
 * too (the box stays as the person set it, and sending says what is wrong).
 */
export function useE2eeAvailability(keys: Pick<KeysApi, 'mine' | 'publicKeyOf'> | undefined, recipient: string): E2eeAvailability | null {
  const id = recipient.trim().toLowerCase();
  const [answer, setAnswer] = useState<{ id: string; availability: E2eeAvailability } | null>(null);
  // Asked once per recipient id, whatever object the caller passes on each render.
  const keysRef = useRef(keys);
  keysRef.current = keys;
  const canAsk = keys !== undefined;
  useEffect(() => {
    const api = keysRef.current;
    if (!canAsk || !api || !USER_ID.test(id)) return;
    let current = true;
    void Promise.all([api.mine(), api.publicKeyOf(id)]).then(
      ([mine, theirs]) => {
        if (current) setAnswer({ id, availability: !mine ? 'sender-has-no-keys' : !theirs ? 'recipient-has-no-keys' : 'available' });
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [canAsk, id]);
  return answer?.id === id ? answer.availability : null;
}
