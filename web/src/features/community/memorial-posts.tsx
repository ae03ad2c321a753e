import { useState } from 'react';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { Time } from '../../components/time';
import { MediaLink } from './media-link';
import type { MemorialPost } from './types';

interface MemorialPostsProps {
  posts: MemorialPost[];
  onLight: (postId: string) => Promise<boolean>;
  lightPending: boolean;
  onReport: (postId: string) => Promise<boolean>;
  onRemove: (postId: string) => Promise<boolean>;
}

const candles = (n: number) => (n === 1 ? '1 candle' : `${n} candles`);

/** The posts of a memorial: text as text, media as a safe link or image, and each post's candles. */
export function MemorialPosts({ posts, onLight, lightPending, onReport, onRemove }: MemorialPostsProps) {
  const [removing, setRemoving] = useState<MemorialPost | null>(null);
  if (!posts.length) return <EmptyState title="No one has posted yet.">Share a memory, a photo or a few words.</EmptyState>;
  return (
    <>
      <ul className="community-list" aria-label="Posts">
        {posts.map((p) => (
          <li key={p.id} className="community-list__item memorial-post">
            <div className="stack">
              <p className="community-text">{p.text}</p>
              <MediaLink url={p.media_url} label="Photo shared with this post" />
              <p className="muted">
                <Time value={p.timestamp} /> · <span>{candles(p.candle_count)}</span>
              </p>
            </div>
            <div className="button-row">
              <Button variant="secondary" disabled={p.lit_by_me || lightPending} onClick={() => void onLight(p.id)}>
                {p.lit_by_me ? 'Candle lit' : 'Light a candle'}
              </Button>
              {p.can_remove ? (
                <Button variant="ghost" onClick={() => setRemoving(p)}>
                  Remove
                </Button>
              ) : (
                <Button variant="ghost" onClick={() => void onReport(p.id)}>
                  Report
                </Button>
              )}
            </div>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title="Remove this post?"
        description="It is gone from the memorial for everyone, with its candles."
        confirmLabel="Remove post"
        confirmVariant="danger"
        onConfirm={async () => {
          if (removing && (await onRemove(removing.id))) setRemoving(null);
        }}
      />
    </>
  );
}
