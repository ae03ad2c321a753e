import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';
import { T } from './texts';

/** Assign and delete, each refreshing the list. Assign's errors are the form's to say; delete's are toasted. */
export function useVaultActions() {
  const utils = trpc.useUtils();
  const assign = trpc.vault.assign.useMutation({
    onSuccess: async () => {
      await utils.vault.list.invalidate();
      void utils.attachments.storage.invalidate();
    },
  });
  const remove = trpc.vault.delete.useMutation({
    onSuccess: async () => {
      toast.success(T.deleted);
      await utils.vault.list.invalidate();
      void utils.attachments.storage.invalidate();
    },
    onError: (error) => void toast.error(readApiError(error).detail ?? T.deleteFailed),
  });
  return {
    assign: assign.mutateAsync,
    remove: (id: string) =>
      remove.mutateAsync({ id }).then(
        () => true,
        () => false,
      ),
    removePending: remove.isPending,
  };
}
