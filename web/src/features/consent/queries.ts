import type { TConsentKind } from '@afterword/worker/contracts/legal';
import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';
import { KIND_LABEL, T } from './texts';

/** Allow or withdraw one kind; resolves true once saved (an error is already said, with the server's detail). */
export function useConsentActions() {
  const utils = trpc.useUtils();
  const set = trpc.legal.setConsent.useMutation({
    onSuccess: async (saved) => {
      toast.success(saved.consent ? T.allowed(KIND_LABEL[saved.id]) : T.withdrawn(KIND_LABEL[saved.id]));
      utils.legal.consents.setData(undefined, (old) => (old ? { items: old.items.map((c) => (c.id === saved.id ? saved : c)) } : old));
      // Messages and vault items show whether they are paused.
      if (saved.id === 'messages') await Promise.all([utils.message.invalidate(), utils.vault.invalidate()]);
    },
    onError: (error) => void toast.error(readApiError(error).detail ?? T.saveFailed),
  });
  return {
    set: (id: TConsentKind, consent: boolean) =>
      set.mutateAsync({ id, consent }).then(
        () => true,
        () => false,
      ),
    pendingKind: set.isPending ? (set.variables?.id ?? null) : null,
  };
}
