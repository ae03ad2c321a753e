import { REMEMBRANCE_PAGE_SIZE, type TRemembrancePage, type TRemembranceQuery } from '../../contracts/memorials';
import type { ServiceContext } from '../../env';
import { ftsQuery } from '../capsules/search-terms';

type Cursor = { kind: 'newest'; at: number; id: string } | { kind: 'candles'; offset: number };

/**
 * GET /api/memorial/posts: remembrances — memorial posts with their memorial — searched by the memorial's
 * `name` and `cause` and by `q` (name, tags, cause and the post's text) with FTS5 (`remembrances_fts`), and
 * by exact `tag`. Ranking: `newest` (default) by post time then id, paged by a keyset cursor; `candles` by
 * candle count, then newest, paged by position (a candle lit between two pages may shift an item by one).
 */
export async function searchRemembrances(ctx: ServiceContext, query: TRemembranceQuery): Promise<TRemembrancePage> {
  const sort = query.sort || 'newest';
  const match = [ftsQuery(query.name, 'name'), ftsQuery(query.cause, 'cause'), ftsQuery(query.q)].filter(Boolean).join(' AND ') || null;
  const cursor = decode(query.cursor);
  const after = cursor?.kind === 'newest' && sort === 'newest' ? cursor : null;
  const offset = cursor?.kind === 'candles' && sort === 'candles' ? cursor.offset : 0;
  const order = sort === 'candles' ? 'candle_count DESC, p.created_at DESC, p.id DESC' : 'p.created_at DESC, p.id DESC';
  const { results } = await ctx.env.DB.prepare(
    `SELECT p.id, p.memorial_id, m.name AS memorial_name, m.avatar_url, p.text, p.media_url, p.created_at,
       (SELECT count(*) FROM memorial_candles c WHERE c.post_id = p.id) AS candle_count
     FROM memorial_posts p JOIN memorials m ON m.id = p.memorial_id
     WHERE p.hidden_at IS NULL AND (?1 IS NULL OR p.id IN (SELECT post_id FROM remembrances_fts WHERE remembrances_fts MATCH ?1))
       AND (?2 = '' OR EXISTS (SELECT 1 FROM json_each(m.tags) WHERE value = ?2))
       AND (?3 IS NULL OR p.created_at < ?3 OR (p.created_at = ?3 AND p.id < ?4))
     ORDER BY ${order} LIMIT ${REMEMBRANCE_PAGE_SIZE + 1} OFFSET ?5`,
  )
    .bind(match, query.tag ?? '', after?.at ?? null, after?.id ?? '', offset)
    .all<{
      id: string;
      memorial_id: string;
      memorial_name: string;
      avatar_url: string | null;
      text: string;
      media_url: string | null;
      created_at: number;
      candle_count: number;
    }>();
  const page = results.slice(0, REMEMBRANCE_PAGE_SIZE);
  const last = page.at(-1);
  const more = results.length > REMEMBRANCE_PAGE_SIZE && last;
  return {
    items: page.map((r) => ({
      id: r.id,
      memorial_id: r.memorial_id,
      memorial_name: r.memorial_name,
      avatar_url: r.avatar_url,
      text: r.text,
      media_url: r.media_url,
      candle_count: r.candle_count,
      timestamp: new Date(r.created_at).toISOString(),
    })),
    next_cursor: more ? btoa(sort === 'candles' ? `c:${offset + REMEMBRANCE_PAGE_SIZE}` : `n:${last.created_at}:${last.id}`).replace(/=+$/, '') : null,
  };
}

/** A cursor from this service, or null for anything else (the first page, never an error). */
function decode(cursor: string | undefined): Cursor | null {
  if (!cursor) return null;
  try {
    const [kind, a, b] = atob(cursor).split(':');
    if (kind === 'c' && /^\d+$/.test(a ?? '')) return { kind: 'candles', offset: Number(a) };
    if (kind === 'n' && /^\d+$/.test(a ?? '') && b) return { kind: 'newest', at: Number(a), id: b };
    return null;
  } catch {
    return null;
  }
}
