import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';

export function useDeadmanActions() {
  const utils = trpc.useUtils();
  const refresh = () => Promise.all([utils.deadman.get.invalidate(), utils.activity.recent.invalidate()]);
  const onError = (fallback: string) => (error: unknown) => void toast.error(readApiError(error).detail ?? fallback);
  const setup = trpc.deadman.setup.useMutation({
    onSuccess: async () => {
      toast.success("Dead-man's switch is on");
      await refresh();
    },
    onError: onError("Could not set up the dead-man's switch. Please try again."),
  });
  const cancel = trpc.deadman.cancel.useMutation({
    onSuccess: async () => {
      toast.success("Dead-man's switch cancelled");
      await refresh();
    },
    onError: onError("Could not cancel the dead-man's switch. Please try again."),
  });
  return {
    setup: (hours: number) =>
      setup.mutateAsync({ hours }).then(
        () => true,
        () => false,
      ),
    cancel: () =>
      cancel.mutateAsync().then(
        () => true,
        () => false,
      ),
    pending: setup.isPending || cancel.isPending,
  };
}
