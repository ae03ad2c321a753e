import { useNavigate } from '@tanstack/react-router';
import { toast, toastApiError } from '../../components/toast';
import { trpc } from '../../lib/trpc';

/** Runs a rehearsal and opens its report. */
export function useRunRehearsal() {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const run = trpc.rehearsal.run.useMutation();
  return {
    pending: run.isPending,
    async run(input: { notify_recipients: boolean; notify_guardians: boolean }) {
      try {
        const report = await run.mutateAsync(input);
        toast.success('Rehearsal done: nothing was released');
        await utils.rehearsal.list.invalidate();
        await navigate({ to: '/app/rehearsal/$id', params: { id: report.id } });
      } catch (err) {
        toastApiError('The rehearsal could not run. Please try again.')(err);
      }
    },
  };
}
