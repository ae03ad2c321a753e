import type { TMemorialInput, TMemorialWish } from '../../contracts/memorials';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { log } from '../../lib/logger';

/*
 * A memorial page made when the owner's death is confirmed, if they asked for one
 * (docs/decisions/community.md "Memorials made at a confirmed death"). The owner writes what it should say
 * while alive; the death-confirmation job makes it (domains/guardian/complete-confirmation.ts).
 */

interface WishRow {
  user_id: string;
  memorial_id: string;
  name: string;
  avatar_url: string | null;
  epitaph: string;
  tags: string;
  cause: string | null;
  made_at: number | null;
  updated_at: number;
}

const toView = (r: WishRow): TMemorialWish => ({
  name: r.name,
  avatar_url: r.avatar_url,
  epitaph: r.epitaph,
  tags: JSON.parse(r.tags),
  cause: r.cause,
  memorial_id: r.memorial_id,
  made_at: r.made_at == null ? null : new Date(r.made_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

const wishRow = (ctx: ServiceContext, userId: string) => ctx.env.DB.prepare('SELECT * FROM memorial_wishes WHERE user_id = ?1').bind(userId).first<WishRow>();

/** GET /api/memorial-wish: the caller's wish, or null. */
export async function getMemorialWish(ctx: ServiceContext, userId: string): Promise<{ wish: TMemorialWish | null }> {
  const row = await wishRow(ctx, userId);
  return { wish: row ? toView(row) : null };
}

const alreadyMade = () => new AppError('CONFLICT', 'Your memorial page is already made: it can be changed on the page itself by its keepers');

/** PUT /api/memorial-wish: what the page should say; the page's id is fixed at the first save. 409 once made. */
export async function saveMemorialWish(ctx: ServiceContext, userId: string, input: TMemorialInput): Promise<{ wish: TMemorialWish | null }> {
  const now = ctx.now().getTime();
  const result = await ctx.env.DB.prepare(
    `INSERT INTO memorial_wishes (user_id, memorial_id, name, avatar_url, epitaph, tags, cause, made_at, created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, NULL, ?8, ?8)
     ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, avatar_url = excluded.avatar_url, epitaph = excluded.epitaph,
       tags = excluded.tags, cause = excluded.cause, updated_at = excluded.updated_at
     WHERE memorial_wishes.made_at IS NULL`,
  )
    .bind(userId, crypto.randomUUID(), input.name, input.avatar_url, input.epitaph, JSON.stringify(input.tags), input.cause, now)
    .run();
  if (result.meta.changes !== 1) throw alreadyMade();
  return getMemorialWish(ctx, userId);
}

/** DELETE /api/memorial-wish: no page will be made. 409 once made (the page is deleted on the page). */
export async function deleteMemorialWish(ctx: ServiceContext, userId: string): Promise<{ wish: null }> {
  const row = await wishRow(ctx, userId);
  if (row?.made_at != null) throw alreadyMade();
  await ctx.env.DB.prepare('DELETE FROM memorial_wishes WHERE user_id = ?1 AND made_at IS NULL').bind(userId).run();
  return { wish: null };
}

/**
 * Makes the wished memorial page once the death is confirmed: one batch that inserts the page under the
 * id fixed in advance (a second run finds it there and inserts nothing) and marks the wish made. Returns
 * the page's id, or null when there was no wish.
 */
export async function makeWishedMemorial(ctx: ServiceContext, ownerId: string): Promise<string | null> {
  const db = ctx.env.DB;
  const now = ctx.now().getTime();
  const [, marked] = await db.batch([
    db
      .prepare(
        `INSERT OR IGNORE INTO memorials (id, created_by, name, avatar_url, epitaph, tags, cause, created_at)
         SELECT memorial_id, user_id, name, avatar_url, epitaph, tags, cause, ?2 FROM memorial_wishes WHERE user_id = ?1 AND made_at IS NULL`,
      )
      .bind(ownerId, now),
    db.prepare('UPDATE memorial_wishes SET made_at = ?2 WHERE user_id = ?1 AND made_at IS NULL RETURNING memorial_id').bind(ownerId, now),
  ]);
  const made = (marked?.results as { memorial_id: string }[] | undefined)?.[0]?.memorial_id ?? null;
  if (made) log.info('memorial made at a confirmed death', { owner_id: ownerId, memorial_id: made });
  return made;
}
