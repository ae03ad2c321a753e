import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { Time } from '../../components/time';
import { CapsuleMediaForm, CapsuleMediaList, type UploadMedia } from './capsule-media-form';
import type { MyCapsule } from './types';

const STATUS: Record<MyCapsule['status'], { label: string; tone: 'neutral' | 'active' | 'grace' }> = {
  scheduled: { label: 'Sealed', tone: 'neutral' },
  released: { label: 'Open', tone: 'active' },
  unpublished: { label: 'Unpublished', tone: 'grace' },
  // Reported by several readers: hidden until it is reviewed.
  hidden: { label: 'Hidden for review', tone: 'grace' },
};

interface MyCapsulesProps {
  capsules: MyCapsule[];
  onDelete: (id: string) => Promise<boolean>;
  onPublish: (id: string) => Promise<boolean>;
  /** Audio and video of a sealed capsule: read the list again after a file is added. */
  onMediaAdded: () => Promise<void> | void;
  onRemoveMedia: (capsuleId: string, itemId: string) => Promise<unknown>;
  upload?: UploadMedia;
}

/** The author's own capsules in every state, each with what can be done to it. */
export function MyCapsules({ capsules, onDelete, onPublish, onMediaAdded, onRemoveMedia, upload }: MyCapsulesProps) {
  const [deleting, setDeleting] = useState<MyCapsule | null>(null);
  const [addingTo, setAddingTo] = useState<string | null>(null);
  if (!capsules.length) return <EmptyState title="You have not written a capsule yet.">Your capsules appear here, sealed until the day they open.</EmptyState>;
  return (
    <>
      <ul className="community-list" aria-label="My capsules">
        {capsules.map((c) => (
          <li key={c.id} className="community-list__item">
            <div>
              <Link to="/app/capsule/$id" params={{ id: c.id }}>
                {c.title}
              </Link>{' '}
              <Badge tone={STATUS[c.status].tone}>{STATUS[c.status].label}</Badge>
              <p className="muted">
                {c.theme} · {c.is_anonymous ? 'anonymous' : 'with your email'} · {c.status === 'scheduled' ? 'opens ' : 'opened '}
                <Time value={c.released_at} />
              </p>
              {c.status === 'scheduled' ? <CapsuleMediaList capsule={c} onRemove={(itemId) => onRemoveMedia(c.id, itemId)} /> : null}
              {addingTo === c.id ? <CapsuleMediaForm capsule={c} onAdded={onMediaAdded} upload={upload} /> : null}
            </div>
            <div className="button-row">
              {c.status === 'scheduled' ? (
                <Button variant="secondary" aria-expanded={addingTo === c.id} onClick={() => setAddingTo(addingTo === c.id ? null : c.id)}>
                  {addingTo === c.id ? 'Done adding' : 'Add audio or video'}
                </Button>
              ) : null}
              {c.status === 'unpublished' ? (
                <Button variant="secondary" onClick={() => void onPublish(c.id)}>
                  Publish again
                </Button>
              ) : null}
              <Button variant="ghost" onClick={() => setDeleting(c)}>
                Delete
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title={`Delete “${deleting?.title ?? ''}”?`}
        description="It is gone for everyone, and cannot be brought back."
        confirmLabel="Delete capsule"
        confirmVariant="danger"
        onConfirm={async () => {
          if (deleting && (await onDelete(deleting.id))) setDeleting(null);
        }}
      />
    </>
  );
}
