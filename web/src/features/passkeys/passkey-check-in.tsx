import { Button } from '../../components/button';
import { trpc } from '../../lib/trpc';
import { useRefreshCanaries } from '../canary/use-canary-actions';
import { passkeyUnavailableReason } from './passkey-browser';
import { usePasskeyCheckIn } from './use-passkeys';

/**
 * Under the Heartbeat, for someone with a passkey: the same check-in of every canary, proven by a touch or a
 * glance on their device (recorded as "with a passkey").
 */
export function PasskeyCheckIn() {
  const passkeys = trpc.passkeys.list.useQuery();
  const refresh = useRefreshCanaries();
  const { run, pending } = usePasskeyCheckIn(refresh);
  if (!passkeys.data?.passkeys.length || passkeyUnavailableReason() !== null) return null;
  return (
    <p>
      <Button variant="secondary" onClick={run} disabled={pending} aria-busy={pending}>
        {pending ? 'Waiting for your device…' : 'Check in with a passkey'}
      </Button>
    </p>
  );
}
