import { schema } from '@afterword/db';
import type { Capsule, CapsuleItem } from '@afterword/db/schema';
import { and, asc, eq, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { capsuleCaptionsPath, type TCapsuleView, type TMyCapsule } from '../../contracts/capsules';
import type { ServiceContext } from '../../env';
import { notFound } from '../../lib/errors';

/** The one 404 of a capsule that is not there, not released yet, or not yours: the same words for all. */
export const capsuleNotFound = () => notFound('Capsule not found');

/** Public: released (`release_at` passed), published and not hidden by reports. What every visitor may read. */
export const isPublic = (now: number): SQL =>
  and(lte(schema.capsules.release_at, new Date(now)), isNull(schema.capsules.unpublished_at), isNull(schema.capsules.hidden_at))!;

/** The same rule in SQL, for a capsules table aliased `alias` and now bound at `nowParam` (ms). */
export const isPublicSql = (alias: string, nowParam: string) =>
  `(${alias}.release_at <= ${nowParam} AND ${alias}.unpublished_at IS NULL AND ${alias}.hidden_at IS NULL)`;

/** The content items of these capsules, in order — text first, then audio and video as added — by capsule id. */
export async function itemsOf(ctx: ServiceContext, ids: string[]): Promise<Map<string, CapsuleItem[]>> {
  const byCapsule = new Map<string, CapsuleItem[]>(ids.map((id) => [id, []]));
  if (!ids.length) return byCapsule;
  const rows = await ctx.db
    .select()
    .from(schema.capsuleItems)
    .where(inArray(schema.capsuleItems.capsule_id, ids))
    .orderBy(asc(schema.capsuleItems.capsule_id), sql`${schema.capsuleItems.type} != 'text'`, asc(schema.capsuleItems.position));
  for (const r of rows) byCapsule.get(r.capsule_id)!.push(r);
  return byCapsule;
}

/**
 * A capsule as anyone may see it. The author's email only when not anonymous: an anonymous capsule's
 * view is built without ever reading who wrote it.
 */
export function toCapsuleView(c: Capsule, items: CapsuleItem[], authorEmail: string | null): TCapsuleView {
  return {
    id: c.id,
    title: c.title,
    theme: c.theme,
    user_email: c.is_anonymous ? null : authorEmail,
    is_anonymous: c.is_anonymous,
    released_at: c.release_at.toISOString(),
    content: items.map(toItemView),
  };
}

/** An item as read: audio and video name where their captions are, when given. */
const toItemView = (i: CapsuleItem): TCapsuleView['content'][number] =>
  i.type === 'text' ? { type: i.type, data: i.data } : { type: i.type, data: i.data, captions: i.captions ? capsuleCaptionsPath(i.id) : null };

/** The author's own view of a capsule: its state and memorial link besides. */
export function toMyCapsule(c: Capsule, items: CapsuleItem[], authorEmail: string, now: number): TMyCapsule {
  return {
    ...toCapsuleView(c, items, authorEmail),
    status: c.hidden_at ? 'hidden' : c.unpublished_at ? 'unpublished' : c.release_at.getTime() <= now ? 'released' : 'scheduled',
    memorial_id: c.memorial_id,
    created_at: c.created_at.toISOString(),
  };
}

/** The author's own capsule, or the same 404 as a capsule that does not exist. */
export async function ownCapsule(ctx: ServiceContext, authorId: string, id: string): Promise<Capsule> {
  const [row] = await ctx.db
    .select()
    .from(schema.capsules)
    .where(and(eq(schema.capsules.id, id), eq(schema.capsules.author_id, authorId)));
  if (!row) throw capsuleNotFound();
  return row;
}
