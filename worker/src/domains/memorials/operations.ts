import { z } from 'zod';
import { ZIdParam } from '../../contracts/ids';
import { defineOperation } from '../../api/operation';
import {
  ZMemorialWishAnswer,
  ZRemembrancePage,
  ZRemembranceQuery,
  ZCandleResult,
  ZMemorialCard,
  ZMemorialInput,
  ZMemorialListQuery,
  ZMemorialPost,
  ZMemorialPostInput,
  ZMemorialQuery,
  ZMemorialView,
  MAX_MEMORIAL_POSTS_PER_HOUR,
} from '../../contracts/memorials';
import { lightCandle } from './light-candle';
import { memorialNotFound, postNotFound } from './memorial-records';
import { listMemorials, readMemorial } from './read-memorial';
import { searchRemembrances } from './search-remembrances';
import { createMemorial, postOnMemorial } from './write-memorial';
import { deleteMemorialWish, getMemorialWish, saveMemorialWish } from './memorial-wish';

/**
 * /api/memorial/* (docs/decisions/community.md): memorial pages, their posts and
 * candles. Reading is public; making a memorial, posting and lighting a candle need a session. The
 * static paths come before `/api/memorial/{id}`.
 */
const tags = ['Memorials'];
const session = { kind: 'session' } as const;
const open = { kind: 'public' } as const;
const noMemorial = { description: 'No such memorial' };
const invalid = { description: 'A field is missing or invalid (`detail` lists each)' };

export const memorialOperations = [
  defineOperation({
    method: 'post',
    path: '/api/memorial/create',
    trpc: 'create',
    access: session,
    input: { body: ZMemorialInput },
    output: ZMemorialView,
    status: 201,
    docs: {
      operationId: 'createMemorial',
      summary: 'Make a memorial page',
      description: '`name`, `avatar_url` (https), `epitaph`, `tags` (veterans, artists, teachers, … lower-cased) and `cause`, for someone who died.',
      tags,
      responses: { 201: { description: 'The memorial' }, 422: invalid },
    },
    run: ({ services, principal }, input) => createMemorial(services, principal.user, input),
  }),
  defineOperation({
    method: 'get',
    path: '/api/memorial/list',
    trpc: 'list',
    access: open,
    input: { query: ZMemorialListQuery },
    output: z.array(ZMemorialCard),
    docs: {
      operationId: 'listMemorials',
      summary: 'Find memorials',
      description: 'Memorials whose name, epitaph or cause holds `q` (case-insensitive) and that carry `tag`, newest first (at most 60).',
      tags,
      responses: { 200: { description: 'Memorials' }, 422: invalid },
    },
    run: ({ services }, query) => listMemorials(services, query),
  }),
  defineOperation({
    method: 'get',
    path: '/api/memorial/posts',
    trpc: 'remembrances',
    access: open,
    input: { query: ZRemembranceQuery },
    output: ZRemembrancePage,
    docs: {
      operationId: 'searchRemembrances',
      summary: 'Search remembrances',
      description:
        'Memorial posts with their memorial, by the memorial’s `name` and `cause` and by `q` (name, tags, cause and text) — full-text, every word, the last as a prefix, any characters — and by `tag`. `sort=newest` (default: post time) or `candles` (most candles, then newest); 20 a page, `next_cursor` as `cursor`.',
      tags,
      responses: { 200: { description: 'A page of remembrances' }, 422: invalid },
    },
    run: ({ services }, query) => searchRemembrances(services, query),
  }),
  defineOperation({
    method: 'post',
    path: '/api/memorial/candle/{id}',
    trpc: 'lightCandle',
    access: session,
    input: { params: ZIdParam },
    output: ZCandleResult,
    notFound: postNotFound,
    docs: {
      operationId: 'lightCandle',
      summary: 'Light a candle on a post',
      description: '`id` is a post’s id. One candle per person per post: lighting again changes nothing and answers the same count. Free.',
      tags,
      responses: { 200: { description: 'The post’s candle count' }, 404: { description: 'No such post' } },
    },
    run: ({ services, principal }, { id }) => lightCandle(services, principal.user, id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/memorial/{id}',
    trpc: 'get',
    access: open,
    input: { params: ZIdParam, query: ZMemorialQuery },
    output: ZMemorialView,
    notFound: memorialNotFound,
    docs: {
      operationId: 'getMemorial',
      summary: 'A memorial page',
      description:
        'Its released capsules and up to 100 posts, `sort=newest` (default) or `candles` (most candles first, then newest). Posts never name their author.',
      tags,
      authOptional: true,
      responses: { 200: { description: 'The memorial' }, 404: noMemorial, 422: invalid },
    },
    run: ({ services, principal }, { id, sort }) => readMemorial(services, principal?.user.id ?? null, id, sort || 'newest'),
  }),
  defineOperation({
    method: 'post',
    path: '/api/memorial/{id}/post',
    trpc: 'post',
    access: session,
    input: { params: ZIdParam, body: ZMemorialPostInput },
    output: ZMemorialPost,
    status: 201,
    notFound: memorialNotFound,
    docs: {
      operationId: 'postOnMemorial',
      limits: [{ what: 'memorial posts', max: MAX_MEMORIAL_POSTS_PER_HOUR, per: 'hour', refusal: 429 }],
      summary: 'Post on a memorial',
      description:
        '`text` (not blank, at most 2,000 characters) and an optional `media_url` (https only). At most 10 posts an hour per account (429). An optional `idempotency_key` (8–100 characters, one per post): sent again with the same key and input, the call answers with the post its first try wrote, counted once; with other words or on another memorial, 409.',
      tags,
      responses: {
        201: { description: 'The post (with an `idempotency_key` sent before: the post its first try wrote)' },
        404: noMemorial,
        409: { description: 'The `idempotency_key` was already used for another post' },
        422: invalid,
        429: { description: 'Too many posts in the last hour' },
      },
    },
    run: ({ services, principal }, { id, ...input }) => postOnMemorial(services, principal.user, id, input),
  }),
  defineOperation({
    method: 'get',
    path: '/api/memorial-wish',
    trpc: 'wish',
    access: session,
    input: {},
    output: ZMemorialWishAnswer,
    docs: {
      operationId: 'getMemorialWish',
      summary: 'Your wish for a memorial page',
      description: 'What the memorial page made when your death is confirmed will say (`wish`), or null when you did not ask for one.',
      tags,
      responses: { 200: { description: 'The wish, or null' } },
    },
    run: ({ services, principal }) => getMemorialWish(services, principal.user.id),
  }),
  defineOperation({
    method: 'put',
    path: '/api/memorial-wish',
    trpc: 'saveWish',
    access: session,
    input: { body: ZMemorialInput },
    output: ZMemorialWishAnswer,
    docs: {
      operationId: 'saveMemorialWish',
      summary: 'Ask for a memorial page when your death is confirmed',
      description:
        'The fields of a memorial (`name`, `avatar_url?`, `epitaph?`, `tags?`, `cause?`). Nothing is public until a confirmed death (never a sandbox report); then the page is made once, created by you.',
      tags,
      responses: { 200: { description: 'Saved' }, 409: { description: 'The page is already made' }, 422: invalid },
    },
    run: ({ services, principal }, input) => saveMemorialWish(services, principal.user.id, input),
  }),
  defineOperation({
    method: 'delete',
    path: '/api/memorial-wish',
    trpc: 'deleteWish',
    access: session,
    input: {},
    output: ZMemorialWishAnswer,
    docs: {
      operationId: 'deleteMemorialWish',
      summary: 'Ask for no memorial page',
      description: 'No page will be made at your death.',
      tags,
      responses: { 200: { description: 'Removed' }, 409: { description: 'The page is already made' } },
    },
    run: ({ services, principal }) => deleteMemorialWish(services, principal.user.id),
  }),
] as const;
