import { useState } from 'react';
import { ErrorState } from '../../components/error-state';
import { Skeleton } from '../../components/skeleton';
import { passkeyUnavailableReason } from './passkey-browser';
import { PasskeysSection } from './passkeys-section';
import { usePasskeys } from './use-passkeys';

/** The Passkeys card on the Notifications page, with the account's passkeys from the server. */
export function ConnectedPasskeysSection() {
  const { list, make, remove } = usePasskeys();
  const [unavailable] = useState(() => passkeyUnavailableReason());
  if (list.isPending) return <Skeleton lines={2} label="Loading your passkeys" />;
  if (list.isError) return <ErrorState title="Your passkeys could not be loaded." read={list} />;
  return <PasskeysSection passkeys={list.data.passkeys} unavailable={unavailable} onMake={make} onRemove={remove} />;
}
