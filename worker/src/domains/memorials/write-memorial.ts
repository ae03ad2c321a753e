import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { sql } from 'drizzle-orm';
import { MAX_MEMORIAL_POSTS_PER_HOUR, type TMemorialInput, type TMemorialPost, type TMemorialPostInput, type TMemorialView } from '../../contracts/memorials';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { memorialNotFound } from './memorial-records';
import { readMemorial } from './read-memorial';

const HOUR_MS = 60 * 60 * 1000;

/** POST /api/memorial/create: a memorial page made by a signed-in person. */
export async function createMemorial(ctx: ServiceContext, creator: User, input: TMemorialInput): Promise<TMemorialView> {
  const id = crypto.randomUUID();
  await ctx.db.insert(schema.memorials).values({ id, created_by: creator.id, ...input, created_at: ctx.now() });
  return readMemorial(ctx, creator.id, id, 'newest');
}

/**
 * POST /api/memorial/{id}/post: a post on a memorial, by a signed-in person; at most 10 an hour per
 * account (429 with Retry-After), counted before the post is written.
 */
export async function postOnMemorial(ctx: ServiceContext, author: User, memorialId: string, input: TMemorialPostInput): Promise<TMemorialPost> {
  const found = await ctx.env.DB.prepare('SELECT 1 FROM memorials WHERE id = ?1').bind(memorialId).first();
  if (!found) throw memorialNotFound();
  const now = ctx.now();
  await reservePost(ctx, author.id, now.getTime());
  const id = crypto.randomUUID();
  await ctx.db
    .insert(schema.memorialPosts)
    .values({ id, memorial_id: memorialId, author_id: author.id, text: input.text, media_url: input.media_url, created_at: now });
  return { id, text: input.text, media_url: input.media_url, candle_count: 0, timestamp: now.toISOString(), lit_by_me: false, can_remove: true };
}

/** One more post in the author's hour, refused past the limit; shared by every isolate (rate_limits). */
async function reservePost(ctx: ServiceContext, authorId: string, now: number) {
  const r = schema.rateLimits;
  const [window] = await ctx.db
    .insert(r)
    .values({ key: `memorial-posts:${authorId}`, count: 1, window_ends_at: new Date(now + HOUR_MS) })
    .onConflictDoUpdate({
      target: r.key,
      set: {
        count: sql`CASE WHEN ${r.window_ends_at} <= ${now} THEN 1 ELSE ${r.count} + 1 END`,
        window_ends_at: sql`CASE WHEN ${r.window_ends_at} <= ${now} THEN excluded.window_ends_at ELSE ${r.window_ends_at} END`,
      },
    })
    .returning();
  if (window!.count > MAX_MEMORIAL_POSTS_PER_HOUR) {
    const seconds = Math.max(1, Math.ceil((window!.window_ends_at.getTime() - now) / 1000));
    throw new AppError('TOO_MANY_REQUESTS', `You wrote ${MAX_MEMORIAL_POSTS_PER_HOUR} posts in the last hour: please wait a little before the next`, {
      'Retry-After': String(seconds),
    });
  }
}
