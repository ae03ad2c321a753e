import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { MAX_MEMORIAL_POSTS_PER_HOUR, type TMemorialInput, type TMemorialPost, type TMemorialPostInput, type TMemorialView } from '../../contracts/memorials';
import type { ServiceContext } from '../../env';
import { countInWindow, tooManyInWindow } from '../../lib/rate-window';
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
  const { count, endsAt } = await countInWindow(ctx.db, `memorial-posts:${authorId}`, now, HOUR_MS);
  if (count > MAX_MEMORIAL_POSTS_PER_HOUR) {
    throw tooManyInWindow(`You wrote ${MAX_MEMORIAL_POSTS_PER_HOUR} posts in the last hour: please wait a little before the next`, endsAt, now);
  }
}
