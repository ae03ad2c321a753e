import { z } from 'zod';
import { MEMORIAL_TAGS } from '@afterword/db/enums';
import { ZIdempotencyKey } from './idempotency';

/**
 * Memorials (docs/product.md "Community: capsules and memorials"; docs/decisions/community.md): a page for someone
 * who died, with posts and candles. Reading is public; making one, posting and lighting need a session.
 */
export { MEMORIAL_TAGS };

export const MEMORIAL_NAME_MAX = 120;
export const MEMORIAL_EPITAPH_MAX = 500;
export const MEMORIAL_POST_MAX = 2_000;
export const MEMORIAL_URL_MAX = 2_048;
/** Posts one account may write per rolling hour, over all memorials. */
export const MAX_MEMORIAL_POSTS_PER_HOUR = 10;
/** Posts shown on a memorial page (newest or most candles first). */
export const MEMORIAL_POSTS_SHOWN = 100;
export const MEMORIAL_SORTS = ['newest', 'candles'] as const;

/** An https URL or nothing (empty and null are nothing): shown as a link or an image, never run. */
const ZHttpsUrl = (field: string) =>
  z
    .union([z.null(), z.string().trim().meta({ format: 'uri', pattern: '^\\s*[Hh][Tt][Tt][Pp][Ss]://', description: 'An https:// address' })])
    .optional()
    .transform((v) => v || null)
    .refine((v) => v === null || v.length <= MEMORIAL_URL_MAX, { message: `${field} must be at most ${MEMORIAL_URL_MAX} characters` })
    .refine((v) => v === null || isHttps(v), { message: `${field} must be an https:// address` });

function isHttps(value: string) {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && !!url.hostname && !url.username && !url.password;
  } catch {
    return false;
  }
}

const ZTag = z.string().trim().toLowerCase().min(1, { message: 'A tag cannot be blank' }).max(30, { message: 'A tag must be at most 30 characters' });

/** POST /api/memorial/create. */
export const ZMemorialInput = z.object({
  name: z
    .string({ message: 'name is required' })
    .trim()
    .min(1, { message: 'name is required' })
    .max(MEMORIAL_NAME_MAX, { message: `name must be at most ${MEMORIAL_NAME_MAX} characters` }),
  avatar_url: ZHttpsUrl('avatar_url'),
  epitaph: z
    .string()
    .trim()
    .max(MEMORIAL_EPITAPH_MAX, { message: `epitaph must be at most ${MEMORIAL_EPITAPH_MAX} characters` })
    .default(''),
  tags: z
    .array(ZTag, { message: 'tags must be a list of words' })
    .max(10, { message: 'At most 10 tags' })
    .default([])
    .transform((tags) => [...new Set(tags)]),
  cause: z
    .union([z.null(), z.string().trim().max(120, { message: 'cause must be at most 120 characters' })])
    .optional()
    .transform((v) => v || null),
});
export type TMemorialInput = z.output<typeof ZMemorialInput>;

/**
 * POST /api/memorial/{id}/post: non-blank text (docs/product.md "Community: capsules and memorials"), an
 * optional https media URL.
 */
export const ZMemorialPostInput = z.object({
  text: z
    .string({ message: 'text is required' })
    .trim()
    .min(1, { message: 'Write something before posting' })
    .max(MEMORIAL_POST_MAX, { message: `text must be at most ${MEMORIAL_POST_MAX.toLocaleString('en-US')} characters` }),
  media_url: ZHttpsUrl('media_url'),
  /** Optional: sent again with the same key and input, the call answers with the post its first try wrote. */
  idempotency_key: ZIdempotencyKey,
});
export type TMemorialPostInput = z.output<typeof ZMemorialPostInput>;

export const ZMemorialQuery = z.object({
  sort: z.union([z.literal(''), z.enum(MEMORIAL_SORTS, { message: 'sort must be newest or candles' })]).optional(),
});

export const ZMemorialPost = z.object({
  id: z.string(),
  text: z.string(),
  media_url: z.string().nullable(),
  candle_count: z.number().int(),
  timestamp: z.string(),
  /** Whether the signed-in caller lit a candle on it (false for visitors). */
  lit_by_me: z.boolean(),
  /** Whether the signed-in caller may remove it: its author, or the memorial's creator. Never who wrote it. */
  can_remove: z.boolean(),
});
export type TMemorialPost = z.output<typeof ZMemorialPost>;

/** GET /api/memorial/{id} (docs/product.md "Community: capsules and memorials"), with its tags and cause. */
export const ZMemorialView = z.object({
  id: z.string(),
  name: z.string(),
  avatar_url: z.string().nullable(),
  epitaph: z.string(),
  tags: z.array(z.string()),
  cause: z.string().nullable(),
  capsules: z.array(z.object({ id: z.string(), title: z.string() })),
  posts: z.array(ZMemorialPost),
});
export type TMemorialView = z.output<typeof ZMemorialView>;

/** GET /api/memorial/list: memorial cards. */
export const ZMemorialCard = z.object({
  id: z.string(),
  name: z.string(),
  avatar_url: z.string().nullable(),
  epitaph: z.string(),
  tags: z.array(z.string()),
  cause: z.string().nullable(),
});
export type TMemorialCard = z.output<typeof ZMemorialCard>;

export const ZMemorialListQuery = z.object({
  q: z.string().max(200, { message: 'q must be at most 200 characters' }).optional(),
  tag: z.string().trim().toLowerCase().max(30).optional(),
});

/** POST /api/memorial/candle/{post_id}. */
export const ZCandleResult = z.object({ post_id: z.string(), candle_count: z.number().int(), lit_by_me: z.literal(true) });
export type TCandleResult = z.output<typeof ZCandleResult>;

/** GET /api/memorial/posts: remembrance search. */
export const ZRemembranceQuery = z.object({
  sort: z.union([z.literal(''), z.enum(MEMORIAL_SORTS, { message: 'sort must be newest or candles' })]).optional(),
  name: z.string().max(200, { message: 'name must be at most 200 characters' }).optional(),
  tag: z.string().trim().toLowerCase().max(200, { message: 'tag must be at most 200 characters' }).optional(),
  cause: z.string().max(200, { message: 'cause must be at most 200 characters' }).optional(),
  q: z.string().max(200, { message: 'q must be at most 200 characters' }).optional(),
  cursor: z.string().max(200).optional(),
});
export type TRemembranceQuery = z.output<typeof ZRemembranceQuery>;

/** A remembrance: a memorial's post as search lists it (docs/product.md "Community: capsules and memorials"). */
export const ZRemembrance = z.object({
  id: z.string(),
  memorial_id: z.string(),
  memorial_name: z.string(),
  avatar_url: z.string().nullable(),
  text: z.string(),
  media_url: z.string().nullable(),
  candle_count: z.number().int(),
  timestamp: z.string(),
});
export const ZRemembrancePage = z.object({ items: z.array(ZRemembrance), next_cursor: z.string().nullable() });
export type TRemembrancePage = z.output<typeof ZRemembrancePage>;
export const REMEMBRANCE_PAGE_SIZE = 20;

/**
 * The owner's wish for a memorial page made when their death is confirmed (GET/PUT/DELETE
 * /api/memorial-wish; docs/decisions/community.md). The same fields as a memorial; `memorial_id` is the
 * page it will be, `made_at` when it was made.
 */
export const ZMemorialWish = z.object({
  name: z.string(),
  avatar_url: z.string().nullable(),
  epitaph: z.string(),
  tags: z.array(z.string()),
  cause: z.string().nullable(),
  memorial_id: z.string(),
  made_at: z.string().nullable(),
  updated_at: z.string(),
});
export type TMemorialWish = z.output<typeof ZMemorialWish>;
export const ZMemorialWishAnswer = z.object({ wish: ZMemorialWish.nullable() });
