import { useState } from 'react';
import type { KeysApi } from '../e2ee/keys-api';
import { T } from '../e2ee/texts';
import { useE2eeAvailability } from './use-e2ee-availability';

/**
 * Whether the message is sealed end to end: the box follows whether encryption is possible for the
 * recipient until the person ticks or unticks it. `note` says why it cannot be used, or that it is on.
 */
export function useE2eeChoice(keys: Pick<KeysApi, 'mine' | 'publicKeyOf'> | undefined, recipient: string) {
  // Null until the person ticks or unticks the box: until then it follows whether encryption is possible.
  const [choice, setChoice] = useState<boolean | null>(null);
  const availability = useE2eeAvailability(keys, recipient);
  const on = choice ?? availability === 'available';
  const note = availability === null ? null : availability === 'available' ? (on ? T.e2eeOnForRecipient : null) : T.e2eeUnavailable[availability];
  return {
    on,
    note,
    choose: (checked: boolean) => setChoice(checked),
    /** Back to following the keys (a discarded draft: the draft never kept the tick). */
    followKeys: () => setChoice(null),
  };
}
