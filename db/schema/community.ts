import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { CAPSULE_ITEM_TYPES, CAPSULE_THEMES } from './enums';
import { users } from './users';

/*
 * The community half (docs/decisions/community.md): confession capsules that open to the world
 * on a date, and memorial pages with posts and candles. Every row is keyed to the account that wrote it
 * and goes with that account (ON DELETE CASCADE). The full-text index `capsules_fts` is a virtual FTS5
 * table made by hand in the migration (drizzle has no virtual tables); a trigger drops its row with
 * the capsule.
 */

/**
 * A memorial page for someone who died, made by a signed-in person (`created_by`). `tags` is a JSON
 * array of lower-case words (veterans, artists, teachers, …).
 */
export const memorials = sqliteTable(
  'memorials',
  {
    id: text('id').primaryKey(),
    created_by: text('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    avatar_url: text('avatar_url'),
    epitaph: text('epitaph').notNull().default(''),
    tags: text('tags', { mode: 'json' }).$type<string[]>().notNull(),
    cause: text('cause'),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('memorials_creator_idx').on(t.created_by)],
);

/**
 * A confession capsule. Public from `release_at` (the API's `released_at`) unless `unpublished_at` is set
 * (the author withdrew the confessions consent, or unpublished it). `is_anonymous` hides the author from
 * every answer but the author's own.
 */
export const capsules = sqliteTable(
  'capsules',
  {
    id: text('id').primaryKey(),
    author_id: text('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    theme: text('theme', { enum: CAPSULE_THEMES }).notNull(),
    is_anonymous: integer('is_anonymous', { mode: 'boolean' }).notNull(),
    release_at: integer('release_at', { mode: 'timestamp_ms' }).notNull(),
    /** A public capsule may be linked to a memorial page (shown there once released). */
    memorial_id: text('memorial_id').references(() => memorials.id, { onDelete: 'set null' }),
    unpublished_at: integer('unpublished_at', { mode: 'timestamp_ms' }),
    /** Hidden pending review after enough distinct reports (docs/decisions/community.md "Reports"). */
    hidden_at: integer('hidden_at', { mode: 'timestamp_ms' }),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updated_at: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('capsules_author_idx').on(t.author_id, t.created_at),
    index('capsules_public_idx').on(t.release_at).where(sql`unpublished_at IS NULL`),
    index('capsules_memorial_idx').on(t.memorial_id),
  ],
);

/**
 * One content item of a capsule, in `position` order: text items first, then audio and video in the
 * order they were added. Text items hold their text in `data`; audio and video items the path they are
 * served from (`/api/capsule/media/{id}`), their bytes in R2 under `r2_key` (counted in the author's
 * storage), the type read from those bytes, and WebVTT `captions` when the author gave them.
 */
export const capsuleItems = sqliteTable(
  'capsule_items',
  {
    id: text('id').primaryKey(),
    capsule_id: text('capsule_id')
      .notNull()
      .references(() => capsules.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    type: text('type', { enum: CAPSULE_ITEM_TYPES }).notNull(),
    data: text('data').notNull(),
    r2_key: text('r2_key'),
    content_type: text('content_type'),
    size: integer('size'),
    duration_ms: integer('duration_ms'),
    captions: text('captions'),
  },
  (t) => [index('capsule_items_capsule_idx').on(t.capsule_id, t.position)],
);

/** A post on a memorial page by a signed-in person. */
export const memorialPosts = sqliteTable(
  'memorial_posts',
  {
    id: text('id').primaryKey(),
    memorial_id: text('memorial_id')
      .notNull()
      .references(() => memorials.id, { onDelete: 'cascade' }),
    author_id: text('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    media_url: text('media_url'),
    /** Hidden pending review after enough distinct reports. */
    hidden_at: integer('hidden_at', { mode: 'timestamp_ms' }),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    /**
     * The post call's `idempotency_key` and a SHA-256 digest of its input (and memorial), when it sent one: the same
     * post sent again answers with this one instead of showing it twice on the page (docs/decisions/create-retries.md).
     */
    create_key: text('create_key'),
    create_digest: text('create_digest'),
  },
  (t) => [
    index('memorial_posts_memorial_idx').on(t.memorial_id, t.created_at),
    index('memorial_posts_author_idx').on(t.author_id),
    // The key is unique per author in the write itself: two tries of one post racing each other write one.
    uniqueIndex('memorial_posts_create_key').on(t.author_id, t.create_key).where(sql`${t.create_key} IS NOT NULL`),
  ],
);

/**
 * One candle per signed-in visitor per post: the primary key is the rule, so lighting again changes
 * nothing and concurrent lights can never double-count. A post's count is always `count(*)` here.
 */
export const memorialCandles = sqliteTable(
  'memorial_candles',
  {
    post_id: text('post_id')
      .notNull()
      .references(() => memorialPosts.id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.post_id, t.user_id] }), index('memorial_candles_user_idx').on(t.user_id)],
);

export const REPORT_TARGETS = ['capsule', 'post'] as const;

/** One signed-in person's report of a capsule or a post: one per person per target (the primary key). */
export const communityReports = sqliteTable(
  'community_reports',
  {
    target_type: text('target_type', { enum: REPORT_TARGETS }).notNull(),
    target_id: text('target_id').notNull(),
    reporter_id: text('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.target_type, t.target_id, t.reporter_id] }), index('community_reports_reporter_idx').on(t.reporter_id)],
);

/**
 * An owner's wish for a memorial page once their death is confirmed (docs/decisions/community.md
 * "Memorials made at a confirmed death"): what it should say, and the id it will have, fixed in advance so
 * that a redelivered confirmation job makes it once. `made_at` is set when it was made.
 */
export const memorialWishes = sqliteTable('memorial_wishes', {
  user_id: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  memorial_id: text('memorial_id').notNull(),
  name: text('name').notNull(),
  avatar_url: text('avatar_url'),
  epitaph: text('epitaph').notNull().default(''),
  tags: text('tags', { mode: 'json' }).$type<string[]>().notNull(),
  cause: text('cause'),
  made_at: integer('made_at', { mode: 'timestamp_ms' }),
  created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  updated_at: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

export type Capsule = typeof capsules.$inferSelect;
export type CapsuleItem = typeof capsuleItems.$inferSelect;
export type Memorial = typeof memorials.$inferSelect;
export type MemorialPost = typeof memorialPosts.$inferSelect;
