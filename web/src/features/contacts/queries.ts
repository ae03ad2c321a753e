import type { TAddContactInput } from '@afterword/worker/contracts/contacts';
import { useCallback, useMemo, useState } from 'react';
import { toast, toastApiError } from '../../components/toast';
import { createRetryKeys } from '../../lib/create-retry-keys';
import { trpc } from '../../lib/trpc';
import { contactOptions, type ContactOption, type Reachability } from './types';

/** Add and remove contacts; each resolves true once done (an error is already said). */
export function useContactActions() {
  const utils = trpc.useUtils();
  const refresh = () => utils.contacts.list.invalidate();
  const add = trpc.contacts.add.useMutation({ onSuccess: refresh, onError: toastApiError('Could not send the invitation. Please try again.') });
  const remove = trpc.contacts.remove.useMutation({
    onSuccess: async () => {
      toast.success('Contact removed');
      await refresh();
    },
    onError: toastApiError('Could not remove the contact. Please try again.'),
  });
  // Sent again after a failure, the same invitation keeps its key: the server writes it once (lib/create-retry-keys.ts).
  const [keys] = useState(() => createRetryKeys<TAddContactInput>());
  return {
    add: (email: string) =>
      keys.sending({ email }, add.mutateAsync).then(
        () => true,
        () => false,
      ),
    addPending: add.isPending,
    remove: (id: string) =>
      remove.mutateAsync({ id }).then(
        () => true,
        () => false,
      ),
    removePending: remove.isPending,
  };
}

/** The accepted contacts for a picker (undefined while loading; empty when the list failed to load). */
export function useContactOptions(): ContactOption[] | undefined {
  const list = trpc.contacts.list.useQuery();
  return useMemo(() => (list.data ? contactOptions(list.data) : list.isError ? [] : undefined), [list.data, list.isError]);
}

/** A stable reachability lookup for the message form. */
export function useReachabilityLookup(): (userId: string) => Promise<Reachability> {
  const utils = trpc.useUtils();
  return useCallback((id: string) => utils.contacts.reachability.fetch({ id }, { retry: false }), [utils]);
}
