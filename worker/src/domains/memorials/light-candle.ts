import type { User } from '@afterword/db/schema';
import type { TCandleResult } from '../../contracts/memorials';
import type { ServiceContext } from '../../env';
import { postNotFound } from './memorial-records';

/**
 * POST /api/memorial/candle/{post_id}: lights the caller's candle on a post. One per person per post:
 * the (post, user) primary key makes a second light a no-op (200, same count), and the count is read in
 * the same batch — a D1 batch is one transaction, so concurrent lights each see an exact count and the
 * total is exactly the number of people who lit.
 */
export async function lightCandle(ctx: ServiceContext, visitor: User, postId: string): Promise<TCandleResult> {
  const db = ctx.env.DB;
  const [, counted] = await db.batch<{ n: number }>([
    db
      .prepare(
        `INSERT INTO memorial_candles (post_id, user_id, created_at)
         SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM memorial_posts WHERE id = ?1 AND hidden_at IS NULL)
         ON CONFLICT (post_id, user_id) DO NOTHING`,
      )
      .bind(postId, visitor.id, ctx.now().getTime()),
    db
      .prepare(
        'SELECT count(*) AS n, EXISTS (SELECT 1 FROM memorial_posts WHERE id = ?1 AND hidden_at IS NULL) AS found FROM memorial_candles WHERE post_id = ?1',
      )
      .bind(postId),
  ]);
  const row = counted!.results[0] as unknown as { n: number; found: number };
  if (!row.found) throw postNotFound();
  return { post_id: postId, candle_count: row.n, lit_by_me: true };
}
