import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';

const failed = (fallback: string) => (error: unknown) => void toast.error(readApiError(error).detail ?? fallback);

/** Assign and revoke guardians; both resolve true once done (an error is already said). */
export function useGuardianActions() {
  const utils = trpc.useUtils();
  const assign = trpc.guardian.assign.useMutation({
    onSuccess: async () => {
      await utils.guardian.list.invalidate();
    },
    onError: failed('Could not assign the guardian. Please try again.'),
  });
  const revoke = trpc.guardian.revoke.useMutation({
    onSuccess: async () => {
      toast.success('Guardian revoked');
      await utils.guardian.list.invalidate();
    },
    onError: failed('Could not revoke the guardian. Please try again.'),
  });
  const ok = () => true;
  const no = () => false;
  return {
    assign: (input: { email: string; consent: true }) => assign.mutateAsync(input).then(ok, no),
    assignPending: assign.isPending,
    revoke: (id: string) => revoke.mutateAsync({ id }).then(ok, no),
    revokePending: revoke.isPending,
  };
}
