import type { TCapsuleView, TMyCapsule } from '@afterword/worker/contracts/capsules';
import type { TMemorialCard, TMemorialPost, TMemorialView } from '@afterword/worker/contracts/memorials';

export type Capsule = TCapsuleView;
export type MyCapsule = TMyCapsule;
export type Memorial = TMemorialView;
export type MemorialCard = TMemorialCard;
export type MemorialPost = TMemorialPost;

/** SPEC section 9. */
export const THEMES = ['Hope', 'Love', 'Pranks', 'Advice'] as const;
export const MEMORIAL_TAGS = ['veterans', 'artists', 'teachers'] as const;

/** The body of a new capsule from the form's fields (one text item; empty date = release now). */
export function capsuleBody(f: { title: string; theme: string; text: string; isAnonymous: boolean; releaseAt: string }) {
  return {
    title: f.title.trim(),
    theme: f.theme as (typeof THEMES)[number],
    is_anonymous: f.isAnonymous,
    release_at: f.releaseAt ? new Date(f.releaseAt).toISOString() : null,
    content: [{ type: 'text' as const, data: f.text.trim() }],
  };
}
