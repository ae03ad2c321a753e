import { Link } from '@tanstack/react-router';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { Time } from '../../components/time';
import { toast, toastApiError } from '../../components/toast';
import { trpc } from '../../lib/trpc';

export interface QueueItem {
  type: 'capsule' | 'post';
  id: string;
  label: string;
  text: string;
  reports: number;
  hidden_at: string;
}

/**
 * The moderators' review queue (GET /api/moderation/queue): each hidden capsule and post with its words
 * (as text, never markup) and how many people reported it; Restore makes it public again, Remove deletes
 * it and tells its author.
 */
export function ReviewQueue({ items }: { items: QueueItem[] }) {
  const utils = trpc.useUtils();
  const after = (what: string) => async () => {
    toast.success(what);
    await Promise.all([utils.moderation.queue.invalidate(), utils.moderation.status.invalidate()]);
  };
  const failed = toastApiError('Could not save the decision. Please try again.');
  const capsule = trpc.moderation.decideCapsule.useMutation({ onError: failed });
  const post = trpc.moderation.decidePost.useMutation({ onError: failed });
  const decide = (item: QueueItem, decision: 'restore' | 'remove') =>
    (item.type === 'capsule' ? capsule : post).mutate(
      { id: item.id, decision },
      { onSuccess: after(decision === 'restore' ? 'Restored: public again' : 'Removed: its author is told') },
    );
  const pending = capsule.isPending || post.isPending;
  if (!items.length) return <EmptyState title="Nothing waits for review.">Capsules and posts hidden by reports appear here.</EmptyState>;
  return (
    <ul className="community-list" aria-label="Hidden for review">
      {items.map((item) => {
        const what = item.type === 'capsule' ? `Capsule “${item.label}”` : `Post on the memorial of ${item.label}`;
        return (
          <li key={`${item.type}:${item.id}`} className="community-list__item" aria-label={what}>
            <div>
              <p>
                <strong>{what}</strong>{' '}
                {item.type === 'capsule' ? (
                  <Link to="/app/capsule/$id" params={{ id: item.id }}>
                    Open
                  </Link>
                ) : null}
              </p>
              <p className="community-text">{item.text}</p>
              <p className="muted">
                Reported by {item.reports} {item.reports === 1 ? 'person' : 'people'} · hidden <Time value={item.hidden_at} />
              </p>
            </div>
            <div className="button-row">
              <Button variant="secondary" disabled={pending} onClick={() => decide(item, 'restore')}>
                Restore
              </Button>
              <Button variant="danger" disabled={pending} onClick={() => decide(item, 'remove')}>
                Remove
              </Button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
