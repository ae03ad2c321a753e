import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { and, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import { CAPSULE_BROWSE_LIMIT, CAPSULE_PAGE_SIZE, capsuleCursor, type TCapsulePage, type TCapsuleView, type TMyCapsule } from '../../contracts/capsules';
import type { Principal } from '../../middleware/context';
import type { ServiceContext } from '../../env';
import { capsuleNotFound, isPublic, itemsOf, toCapsuleView, toMyCapsule } from './capsule-records';
import { ftsQuery } from './search-terms';

const c = schema.capsules;
/** The author's email, read only for a capsule that is not anonymous. */
const authorEmail = sql<string | null>`CASE WHEN ${c.is_anonymous} = 0 THEN ${schema.users.email} END`;
// Within D1’s 100 bound parameters of the items query that follows.
const BROWSE_LIMIT = CAPSULE_BROWSE_LIMIT;

/**
 * GET /api/capsule/browse?theme&year&cursor: released capsules, newest first, of a theme and a (UTC) year,
 * 50 at a time; `cursor` (capsuleCursor of the last one shown) asks for the ones after it.
 */
export async function browseCapsules(ctx: ServiceContext, query: { theme?: string; year?: number | ''; cursor?: string }) {
  const conditions: SQL[] = [isPublic(ctx.now().getTime())];
  const after = decodeCursor(query.cursor);
  if (after) conditions.push(or(lt(c.release_at, new Date(after.at)), and(eq(c.release_at, new Date(after.at)), lt(c.id, after.id)))!);
  if (query.theme) conditions.push(eq(c.theme, query.theme as never));
  if (typeof query.year === 'number') {
    conditions.push(gte(c.release_at, new Date(Date.UTC(query.year, 0, 1))), lt(c.release_at, new Date(Date.UTC(query.year + 1, 0, 1))));
  }
  const rows = await ctx.db
    .select()
    .from(c)
    .where(and(...conditions))
    .orderBy(desc(c.release_at), desc(c.id))
    .limit(BROWSE_LIMIT);
  const items = await itemsOf(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    theme: r.theme,
    content: items.get(r.id)!.map((i) => ({ type: i.type, data: i.data })),
    release_at: r.release_at.toISOString(),
  }));
}

/**
 * GET /api/capsule/list?tag&search&cursor: released capsules of a theme whose title or text matches every
 * search word (FTS5; the last word as a prefix), newest release first, 20 a page. The cursor is the last
 * item's release time and id, so a page never repeats or skips an item when new ones are released.
 */
export async function listCapsules(ctx: ServiceContext, query: { tag?: string; search?: string; cursor?: string }): Promise<TCapsulePage> {
  const conditions: SQL[] = [isPublic(ctx.now().getTime())];
  if (query.tag) conditions.push(eq(c.theme, query.tag as never));
  const match = ftsQuery(query.search);
  if (match) conditions.push(sql`${c.id} IN (SELECT capsule_id FROM capsules_fts WHERE capsules_fts MATCH ${match})`);
  const after = decodeCursor(query.cursor);
  if (after) conditions.push(or(lt(c.release_at, new Date(after.at)), and(eq(c.release_at, new Date(after.at)), lt(c.id, after.id)))!);
  const rows = await ctx.db
    .select({ capsule: c, email: authorEmail })
    .from(c)
    .innerJoin(schema.users, eq(schema.users.id, c.author_id))
    .where(and(...conditions))
    .orderBy(desc(c.release_at), desc(c.id))
    .limit(CAPSULE_PAGE_SIZE + 1);
  const page = rows.slice(0, CAPSULE_PAGE_SIZE);
  const items = await itemsOf(
    ctx,
    page.map((r) => r.capsule.id),
  );
  const last = page.at(-1)?.capsule;
  return {
    items: page.map((r) => toCapsuleView(r.capsule, items.get(r.capsule.id)!, r.email)),
    next_cursor: rows.length > CAPSULE_PAGE_SIZE && last ? capsuleCursor(last.release_at.getTime(), last.id) : null,
  };
}

/**
 * GET /api/capsule/view/{id}: a released, published capsule for anyone; the author also sees their own
 * before release (or unpublished). Everyone else gets the same 404 as for a capsule that does not exist.
 */
export async function viewCapsule(ctx: ServiceContext, principal: Principal | null, id: string): Promise<TCapsuleView> {
  const viewerId = principal?.user.id ?? null;
  const visible = viewerId ? or(isPublic(ctx.now().getTime()), eq(c.author_id, viewerId)) : isPublic(ctx.now().getTime());
  const [row] = await ctx.db
    .select({ capsule: c, email: authorEmail })
    .from(c)
    .innerJoin(schema.users, eq(schema.users.id, c.author_id))
    .where(and(eq(c.id, id), visible));
  if (!row) throw capsuleNotFound();
  const items = await itemsOf(ctx, [id]);
  return toCapsuleView(row.capsule, items.get(id)!, row.email);
}

/** GET /api/capsule/mine: the author's capsules, newest first, in every state. */
export async function myCapsules(ctx: ServiceContext, author: User): Promise<TMyCapsule[]> {
  const rows = await ctx.db.select().from(c).where(eq(c.author_id, author.id)).orderBy(desc(c.created_at), desc(c.id));
  const items = await itemsOf(
    ctx,
    rows.map((r) => r.id),
  );
  const now = ctx.now().getTime();
  return rows.map((r) => toMyCapsule(r, items.get(r.id)!, author.email, now));
}

/** A cursor from encodeCursor, or null for anything else (an odd cursor is the first page, never an error). */
function decodeCursor(cursor: string | undefined): { at: number; id: string } | null {
  if (!cursor) return null;
  try {
    const [at, id] = atob(cursor).split(':');
    if (!id || !/^\d+$/.test(at ?? '')) return null;
    return { at: Number(at), id };
  } catch {
    return null;
  }
}
