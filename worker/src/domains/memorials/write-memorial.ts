import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { MAX_MEMORIAL_POSTS_PER_HOUR, type TMemorialInput, type TMemorialPost, type TMemorialPostInput, type TMemorialView } from '../../contracts/memorials';
import type { ServiceContext } from '../../env';
import { isKeyClash, keyAndDigestOf, keyedRow } from '../../lib/create-retry';
import { countInWindow, tooManyInWindow } from '../../lib/rate-window';
import { memorialNotFound } from './memorial-records';
import { type PostRow, readMemorial, toPost } from './read-memorial';

const HOUR_MS = 60 * 60 * 1000;

/** POST /api/memorial/create: a memorial page made by a signed-in person. */
export async function createMemorial(ctx: ServiceContext, creator: User, input: TMemorialInput): Promise<TMemorialView> {
  const id = crypto.randomUUID();
  await ctx.db.insert(schema.memorials).values({ id, created_by: creator.id, ...input, created_at: ctx.now() });
  return readMemorial(ctx, creator.id, id, 'newest');
}

/**
 * POST /api/memorial/{id}/post: a post on a memorial, by a signed-in person; at most 10 an hour per
 * account (429 with Retry-After), counted before the post is written. With an `idempotency_key`, the same post sent
 * again (its answer lost, or Post pressed twice) answers with the post its first try wrote, counted once
 * (docs/decisions/create-retries.md).
 */
export async function postOnMemorial(ctx: ServiceContext, author: User, memorialId: string, input: TMemorialPostInput): Promise<TMemorialPost> {
  const found = await ctx.env.DB.prepare('SELECT 1 FROM memorials WHERE id = ?1').bind(memorialId).first();
  if (!found) throw memorialNotFound();
  // The memorial is part of what the key names: the same words on another memorial are another post.
  const named = { ...input, memorial_id: memorialId };
  const retry = input.idempotency_key ? await keyAndDigestOf(named) : null;
  const earlier = retry ? await postOfKey(ctx, author.id, retry) : null;
  if (earlier) return earlier;
  const now = ctx.now();
  await reservePost(ctx, author.id, now.getTime());
  const id = crypto.randomUUID();
  try {
    await ctx.db.insert(schema.memorialPosts).values({
      id,
      memorial_id: memorialId,
      author_id: author.id,
      text: input.text,
      media_url: input.media_url,
      created_at: now,
      create_key: retry?.key ?? null,
      create_digest: retry?.digest ?? null,
    });
  } catch (err) {
    // Another try of this post wrote first (the key's unique index): its post is the answer.
    const raced = retry && isKeyClash(err, 'memorial_posts', 'author_id') ? await postOfKey(ctx, author.id, retry) : null;
    if (raced) return raced;
    throw err;
  }
  return { id, text: input.text, media_url: input.media_url, candle_count: 0, timestamp: now.toISOString(), lit_by_me: false, can_remove: true };
}

/** The author's post an earlier try with this key wrote, as its page shows it to them; null when none; 409 for another input. */
async function postOfKey(ctx: ServiceContext, authorId: string, retry: { key: string; digest: string }): Promise<TMemorialPost | null> {
  const found = await ctx.env.DB.prepare(
    `SELECT p.id, p.text, p.media_url, p.created_at, p.create_digest, 1 AS can_remove,
       (SELECT count(*) FROM memorial_candles c WHERE c.post_id = p.id) AS candle_count,
       EXISTS (SELECT 1 FROM memorial_candles c WHERE c.post_id = p.id AND c.user_id = ?1) AS lit_by_me
     FROM memorial_posts p WHERE p.author_id = ?1 AND p.create_key = ?2`,
  )
    .bind(authorId, retry.key)
    .first<PostRow & { create_digest: string | null }>();
  const post = keyedRow(found ?? undefined, retry.digest, 'memorial post');
  return post ? toPost(post) : null;
}

/** One more post in the author's hour, refused past the limit; shared by every isolate (rate_limits). */
async function reservePost(ctx: ServiceContext, authorId: string, now: number) {
  const { count, endsAt } = await countInWindow(ctx.db, `memorial-posts:${authorId}`, now, HOUR_MS);
  if (count > MAX_MEMORIAL_POSTS_PER_HOUR) {
    throw tooManyInWindow(`You wrote ${MAX_MEMORIAL_POSTS_PER_HOUR} posts in the last hour: please wait a little before the next`, endsAt, now);
  }
}
