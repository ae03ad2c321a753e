import { z } from 'zod';
import { CAPSULE_ITEM_TYPES, CAPSULE_THEMES } from '@afterword/db/enums';
import { ZId } from './ids';
import { parseIsoInstant } from './messages';

/**
 * Confession capsules (docs/product.md "Community: capsules and memorials"; docs/decisions/community.md): letters to
 * the world that open on a date. Public from `released_at`; an anonymous one never names its author
 * (`user_email: null`) in any answer, the author's own list aside.
 */
export { CAPSULE_ITEM_TYPES, CAPSULE_THEMES };

export const CAPSULE_TITLE_MAX = 200;
export const CAPSULE_TEXT_MAX = 20_000;
export const CAPSULE_ITEMS_MAX = 20;
/** A page of GET /api/capsule/list. */
export const CAPSULE_PAGE_SIZE = 20;
/** How far in the past a `release_at` may lie and still count as "now" (a clock a little behind). */
export const RELEASE_AT_SLACK_MS = 5 * 60_000;

const ZTheme = z.enum(CAPSULE_THEMES, { message: `theme must be one of ${CAPSULE_THEMES.join(', ')}` });

/**
 * A content item as written in the JSON body: text. Audio and video are files, added one by one with
 * POST /api/capsule/{id}/media (docs/decisions/community.md "Audio and video items").
 */
export const ZCapsuleItemInput = z.object({
  type: z.literal('text', { message: 'Only text items go in content: add audio and video files with POST /api/capsule/{id}/media' }),
  data: z
    .string({ message: 'data must be the text' })
    .trim()
    .min(1, { message: 'A text item cannot be blank' })
    .max(CAPSULE_TEXT_MAX, { message: `A text item must be at most ${CAPSULE_TEXT_MAX.toLocaleString('en-US')} characters` }),
});

/** Empty or absent = now; otherwise an ISO date or date-time, not in the past. */
const ZReleaseAt = z
  .union([
    z.null(),
    z.literal(''),
    z
      .string()
      .trim()
      .refine((v) => v === '' || parseIsoInstant(v) !== null, { message: 'release_at must be an ISO date or date-time' }),
  ])
  .optional()
  .transform((v) => (v ? parseIsoInstant(v) : null));

/** POST /api/capsule/create, and the whole capsule again on an edit before release. */
export const ZCapsuleInput = z.object({
  title: z
    .string({ message: 'title is required' })
    .trim()
    .min(1, { message: 'title is required' })
    .max(CAPSULE_TITLE_MAX, { message: `title must be at most ${CAPSULE_TITLE_MAX} characters` }),
  theme: ZTheme,
  is_anonymous: z.boolean({ message: 'is_anonymous must be true or false' }).default(false),
  release_at: ZReleaseAt,
  content: z
    .array(ZCapsuleItemInput, { message: 'content must be a list of items' })
    .min(1, { message: 'A capsule needs at least one item' })
    .max(CAPSULE_ITEMS_MAX, { message: `A capsule holds at most ${CAPSULE_ITEMS_MAX} items` }),
  /** Optional: the memorial page this capsule is shown on once released. */
  memorial_id: z.union([z.null(), ZId]).optional().default(null),
});
export type TCapsuleInput = z.output<typeof ZCapsuleInput>;

/**
 * PATCH /api/capsule/{id}: any of the create fields; the ones left out keep their value (`release_at`
 * empty or null = now).
 */
export const ZCapsuleEdit = ZCapsuleInput.omit({ release_at: true, is_anonymous: true, memorial_id: true })
  .partial()
  .extend({
    is_anonymous: z.boolean({ message: 'is_anonymous must be true or false' }).optional(),
    release_at: z.union([z.null(), z.literal(''), z.string()]).optional(),
    memorial_id: z.union([z.null(), ZId]).optional(),
  });
export type TCapsuleEdit = z.output<typeof ZCapsuleEdit>;

/** An edit over the capsule as it is: the whole capsule to store, validated as a create would be. */
export function mergeCapsuleEdit(current: z.input<typeof ZCapsuleInput>, edit: TCapsuleEdit) {
  const merged = Object.fromEntries(Object.entries({ ...current, ...edit }).filter(([, v]) => v !== undefined));
  return ZCapsuleInput.safeParse(merged);
}

/**
 * A content item as read (type and data, docs/product.md "Community: capsules and memorials"). Audio and video:
 * `data` is the path the file is served from, and `captions` the path of its WebVTT captions when the author
 * gave them.
 */
export const ZCapsuleItem = z.object({ type: z.enum(CAPSULE_ITEM_TYPES), data: z.string(), captions: z.string().nullable().optional() });

/** Audio and video items: one file each, up to 50 MiB, counted in the author's storage. */
export const CAPSULE_MEDIA_MAX_BYTES = 50 * 1024 * 1024;
export const CAPSULE_MEDIA_MAX_BODY_BYTES = CAPSULE_MEDIA_MAX_BYTES + 256 * 1024;
export const CAPSULE_CAPTIONS_MAX = 100_000;
export const CAPSULE_MEDIA_TYPES = ['audio', 'video'] as const;
export const capsuleMediaPath = (itemId: string) => `/api/capsule/media/${itemId}`;
export const capsuleCaptionsPath = (itemId: string) => `/api/capsule/media/${itemId}/captions`;

/** POST /api/capsule/{id}/media: the multipart fields beside `file`. */
export const ZCapsuleMediaFields = z.object({
  type: z.enum(CAPSULE_MEDIA_TYPES, { message: 'type must be audio or video' }),
  captions: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.replace(/^\uFEFF/, '') : null))
    .pipe(
      z
        .string()
        .max(CAPSULE_CAPTIONS_MAX, { message: `captions must be at most ${CAPSULE_CAPTIONS_MAX.toLocaleString('en-US')} characters` })
        .refine((v) => /^WEBVTT(?:[ \t].*)?(?:\r?\n|$)/.test(v), { message: 'captions must be WebVTT: the text starts with WEBVTT' })
        .nullable(),
    ),
});
export type TCapsuleMediaFields = z.output<typeof ZCapsuleMediaFields>;

/** GET /api/capsule/view/{id} (docs/product.md "Community: capsules and memorials"), and the items of the list. */
export const ZCapsuleView = z.object({
  id: z.string(),
  title: z.string(),
  theme: ZTheme,
  /** The author's email, or null when anonymous. */
  user_email: z.string().nullable(),
  is_anonymous: z.boolean(),
  released_at: z.string(),
  content: z.array(ZCapsuleItem),
});
export type TCapsuleView = z.output<typeof ZCapsuleView>;

/** GET /api/capsule/browse (docs/product.md "Community: capsules and memorials"), with its title for the card. */
export const ZCapsuleBrowseItem = z.object({
  id: z.string(),
  title: z.string(),
  theme: ZTheme,
  content: z.array(ZCapsuleItem),
  release_at: z.string(),
});

/** A page's cursor: the last item's release time and id (GET /api/capsule/list and browse; the web computes the next one too). */
export const capsuleCursor = (releasedAt: string | number, id: string) =>
  btoa(`${typeof releasedAt === 'number' ? releasedAt : Date.parse(releasedAt)}:${id}`).replace(/=+$/, '');

/** GET /api/capsule/browse returns at most this many; a full page means there may be more (`cursor`). */
export const CAPSULE_BROWSE_LIMIT = 50;

export const ZCapsuleBrowseQuery = z.object({
  /** After this item (capsuleCursor of the last one shown): the next page, for "Show more". */
  cursor: z.string().max(200).optional(),
  theme: z.union([z.literal(''), ZTheme]).optional(),
  year: z.union([z.literal(''), z.coerce.number({ message: 'year must be a year' }).int({ message: 'year must be a year' }).min(1970).max(9999)]).optional(),
});

export const ZCapsuleListQuery = z.object({
  /** A theme (the search calls it `tag`). */
  tag: z.union([z.literal(''), ZTheme]).optional(),
  search: z.string().max(200, { message: 'search must be at most 200 characters' }).optional(),
  cursor: z.string().max(200).optional(),
});

export const ZCapsulePage = z.object({ items: z.array(ZCapsuleView), next_cursor: z.string().nullable() });
export type TCapsulePage = z.output<typeof ZCapsulePage>;

/** `hidden`: reported by enough people, hidden pending review (docs/decisions/community.md). */
export const CAPSULE_STATUSES = ['scheduled', 'released', 'unpublished', 'hidden'] as const;

/** One of the author's own capsules (GET /api/capsule/mine): everything, including the memorial link. */
export const ZMyCapsule = ZCapsuleView.extend({
  status: z.enum(CAPSULE_STATUSES),
  memorial_id: z.string().nullable(),
  created_at: z.string(),
});
export type TMyCapsule = z.output<typeof ZMyCapsule>;
