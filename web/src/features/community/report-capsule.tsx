import { Button } from '../../components/button';
import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';

/**
 * Report a capsule that is not one's own (one's own list says which are); on one's own, where to manage it. Hidden pending review after
 * several people report it; the answer never says how many did.
 */
export function ReportCapsule({ id }: { id: string }) {
  const mine = trpc.capsule.mine.useQuery();
  const shown = trpc.capsule.view.useQuery({ id }).data;
  const send = trpc.moderation.reportCapsule.useMutation({
    onSuccess: () => void toast.success('Reported. It will be reviewed.'),
    onError: (error) => void toast.error(readApiError(error).detail ?? 'Could not report the capsule. Please try again.'),
  });
  if (!shown || !mine.data) return null;
  if (mine.data.some((c) => c.id === id)) return <p className="muted">This capsule is yours: you can delete it on the Capsules page.</p>;
  return (
    <div className="button-row">
      <Button variant="ghost" disabled={send.isPending || send.isSuccess} onClick={() => send.mutate({ id })}>
        {send.isSuccess ? 'Reported' : 'Report this capsule'}
      </Button>
    </div>
  );
}
