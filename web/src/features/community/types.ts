import type { TCapsuleView, TMyCapsule } from '@afterword/worker/contracts/capsules';
import type { TMemorialCard, TMemorialPost, TMemorialView } from '@afterword/worker/contracts/memorials';

export type Capsule = TCapsuleView;
export type MyCapsule = TMyCapsule;
export type Memorial = TMemorialView;
export type MemorialCard = TMemorialCard;
export type MemorialPost = TMemorialPost;

/** The capsule themes (docs/product.md "Community: capsules and memorials"). */
export const THEMES = ['Hope', 'Love', 'Pranks', 'Advice'] as const;
export const MEMORIAL_TAGS = ['veterans', 'artists', 'teachers'] as const;

/**
 * The body of a capsule from the form's fields (one text item; empty date = release now; the memorial it
 * is shown on, or none).
 */
export function capsuleBody(f: { title: string; theme: string; text: string; isAnonymous: boolean; releaseAt: string; memorialId?: string | null }) {
  return {
    title: f.title.trim(),
    theme: f.theme as (typeof THEMES)[number],
    is_anonymous: f.isAnonymous,
    release_at: f.releaseAt ? new Date(f.releaseAt).toISOString() : null,
    content: [{ type: 'text' as const, data: f.text.trim() }],
    memorial_id: f.memorialId ?? null,
  };
}

/** An ISO time as a datetime-local value in the browser's time zone ('2026-05-14T09:30'). */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A capsule's text items as the form's one letter (paragraphs kept). */
export const letterOf = (c: Pick<MyCapsule, 'content'>) =>
  c.content
    .filter((i) => i.type === 'text')
    .map((i) => i.data)
    .join('\n\n');
