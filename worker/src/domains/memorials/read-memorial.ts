import type { TMemorialCard, TMemorialPost, TMemorialView } from '../../contracts/memorials';
import { MEMORIAL_POSTS_SHOWN } from '../../contracts/memorials';
import type { ServiceContext } from '../../env';
import { memorialNotFound } from './memorial-records';

interface MemorialRow {
  id: string;
  name: string;
  avatar_url: string | null;
  epitaph: string;
  tags: string;
  cause: string | null;
}

/**
 * GET /api/memorial/{id}?sort: the page — its released, published capsules and its posts, newest first
 * or most candles first (then newest). Candle counts are counted, never stored: always exact.
 */
export async function readMemorial(ctx: ServiceContext, viewerId: string | null, id: string, sort: 'newest' | 'candles'): Promise<TMemorialView> {
  const db = ctx.env.DB;
  const order = sort === 'candles' ? 'candle_count DESC, p.created_at DESC, p.id DESC' : 'p.created_at DESC, p.id DESC';
  const [memorial, capsules, posts] = await db.batch([
    db.prepare('SELECT id, name, avatar_url, epitaph, tags, cause FROM memorials WHERE id = ?1').bind(id),
    db
      .prepare(
        'SELECT id, title FROM capsules WHERE memorial_id = ?1 AND release_at <= ?2 AND unpublished_at IS NULL AND hidden_at IS NULL ORDER BY release_at DESC',
      )
      .bind(id, ctx.now().getTime()),
    db
      .prepare(
        `SELECT p.id, p.text, p.media_url, p.created_at,
           (SELECT count(*) FROM memorial_candles c WHERE c.post_id = p.id) AS candle_count,
           EXISTS (SELECT 1 FROM memorial_candles c WHERE c.post_id = p.id AND c.user_id = ?2) AS lit_by_me,
           (p.author_id = ?2 OR EXISTS (SELECT 1 FROM memorials m WHERE m.id = p.memorial_id AND m.created_by = ?2)) AS can_remove
         FROM memorial_posts p WHERE p.memorial_id = ?1 AND p.hidden_at IS NULL ORDER BY ${order} LIMIT ${MEMORIAL_POSTS_SHOWN}`,
      )
      .bind(id, viewerId ?? ''),
  ]);
  const row = memorial!.results[0] as MemorialRow | undefined;
  if (!row) throw memorialNotFound();
  return {
    ...toCard(row),
    capsules: capsules!.results as { id: string; title: string }[],
    posts: (posts!.results as PostRow[]).map(toPost),
  };
}

/** A post as D1 reads it for a viewer: its candles counted, whether the viewer lit one and may remove it (SQLite's 0/1). */
export interface PostRow {
  id: string;
  text: string;
  media_url: string | null;
  created_at: number;
  candle_count: number;
  lit_by_me: number;
  can_remove: number;
}

/** A post as the page shows it. */
export const toPost = (p: PostRow): TMemorialPost => ({
  id: p.id,
  text: p.text,
  media_url: p.media_url,
  candle_count: p.candle_count,
  timestamp: new Date(p.created_at).toISOString(),
  lit_by_me: p.lit_by_me === 1,
  can_remove: p.can_remove === 1,
});

/**
 * GET /api/memorial/list?q&tag: memorials whose name, epitaph or cause holds `q` (case-insensitive, as
 * typed: `%` and `_` are plain characters) and that carry `tag`, newest first, at most 60. A substring
 * test (`instr`), not LIKE: D1 refuses LIKE patterns longer than 50 bytes ("pattern too complex"), and
 * `q` may be 200 characters.
 */
export async function listMemorials(ctx: ServiceContext, query: { q?: string; tag?: string }): Promise<TMemorialCard[]> {
  const q = (query.q ?? '').trim().toLowerCase();
  const { results } = await ctx.env.DB.prepare(
    `SELECT id, name, avatar_url, epitaph, tags, cause FROM memorials
     WHERE (?1 = '' OR instr(lower(name), ?1) > 0 OR instr(lower(epitaph), ?1) > 0 OR instr(lower(coalesce(cause, '')), ?1) > 0)
       AND (?2 = '' OR EXISTS (SELECT 1 FROM json_each(memorials.tags) WHERE value = ?2))
     ORDER BY created_at DESC, id DESC LIMIT 60`,
  )
    .bind(q, query.tag ?? '')
    .all<MemorialRow>();
  return results.map(toCard);
}

function toCard(row: MemorialRow): TMemorialCard {
  return { id: row.id, name: row.name, avatar_url: row.avatar_url, epitaph: row.epitaph, tags: JSON.parse(row.tags) as string[], cause: row.cause };
}
