import { z } from 'zod';
import { ZIdParam } from '../../contracts/ids';
import { defineOperation } from '../../api/operation';
import {
  ZCapsuleBrowseItem,
  ZCapsuleEdit,
  ZCapsuleBrowseQuery,
  ZCapsuleInput,
  ZCapsuleListQuery,
  ZCapsulePage,
  ZCapsuleView,
  ZMyCapsule,
  CAPSULE_MEDIA_MAX_BODY_BYTES,
  ZCapsuleMediaFields,
} from '../../contracts/capsules';
import { capsuleNotFound } from './capsule-records';
import { addCapsuleMedia, capsuleCaptionsResponse, capsuleMediaResponse, deleteCapsuleMedia } from './capsule-media';
import { browseCapsules, listCapsules, myCapsules, viewCapsule } from './read-capsules';
import { createCapsule, deleteCapsule, editCapsule, publishCapsule } from './write-capsule';

/**
 * /api/capsule/* (docs/decisions/community.md): confession capsules. Reading
 * released ones is public; writing needs a session and the `confessions` consent. An anonymous
 * capsule's answers never carry its author.
 */
const tags = ['Capsules'];
const session = { kind: 'session' } as const;
const open = { kind: 'public' } as const;
const notFoundDoc = { description: 'No such capsule, not released yet, or not yours' };
const invalid = { description: 'A field is missing or invalid (`detail` lists each)' };

const ZItemParams = z.object({ id: ZIdParam.shape.id, item_id: ZIdParam.shape.id });

/**
 * The media upload's parts, read as they come: the service checks them after finding the capsule, so that
 * another person's capsule is a 404 whatever the form holds (the walk test's rule).
 */
function readMedia(form: FormData) {
  return { form };
}

export const capsuleOperations = [
  defineOperation({
    method: 'post',
    path: '/api/capsule/create',
    trpc: 'create',
    access: session,
    input: { body: ZCapsuleInput },
    output: ZMyCapsule,
    status: 201,
    docs: {
      operationId: 'createCapsule',
      summary: 'Write a confession capsule',
      description:
        '`title`, `theme` (Hope, Love, Pranks, Advice), `is_anonymous`, `release_at` (empty = now; never in the past) and `content` (text items). Public from `release_at`. Needs the `confessions` consent.',
      tags,
      responses: { 201: { description: 'The capsule, as its author sees it' }, 403: { description: 'The confessions consent is withdrawn' }, 422: invalid },
    },
    run: ({ services, principal }, input) => createCapsule(services, principal.user, input),
  }),
  defineOperation({
    method: 'get',
    path: '/api/capsule/browse',
    trpc: 'browse',
    access: open,
    input: { query: ZCapsuleBrowseQuery },
    output: z.array(ZCapsuleBrowseItem),
    docs: {
      operationId: 'browseCapsules',
      summary: 'Browse released capsules',
      description: 'Released capsules, newest first (at most 50), of a `theme` and a `year` (UTC) when given. Never names an author.',
      tags,
      responses: { 200: { description: 'Capsules' }, 422: invalid },
    },
    run: ({ services }, query) => browseCapsules(services, query),
  }),
  defineOperation({
    method: 'get',
    path: '/api/capsule/list',
    trpc: 'list',
    access: open,
    input: { query: ZCapsuleListQuery },
    output: ZCapsulePage,
    docs: {
      operationId: 'listCapsules',
      summary: 'Search released capsules',
      description:
        'Released capsules of a theme (`tag`) whose title or text holds every word of `search` (the last word as a prefix), newest release first, 20 a page; pass `next_cursor` as `cursor` for the next page. Any characters may be searched.',
      tags,
      responses: { 200: { description: 'A page of capsules' }, 422: invalid },
    },
    run: ({ services }, query) => listCapsules(services, query),
  }),
  defineOperation({
    method: 'get',
    path: '/api/capsule/mine',
    trpc: 'mine',
    access: session,
    input: {},
    output: z.array(ZMyCapsule),
    docs: {
      operationId: 'myCapsules',
      summary: 'My capsules',
      description: 'Your capsules in every state (`scheduled`, `released`, `unpublished`), newest first.',
      tags,
      responses: { 200: { description: 'Your capsules' } },
    },
    run: ({ services, principal }) => myCapsules(services, principal.user),
  }),
  defineOperation({
    method: 'get',
    path: '/api/capsule/view/{id}',
    trpc: 'view',
    access: open,
    input: { params: ZIdParam },
    output: ZCapsuleView,
    notFound: capsuleNotFound,
    docs: {
      operationId: 'viewCapsule',
      summary: 'Read a capsule',
      description: 'A released capsule, for anyone; before `released_at` only its author (signed in) can read it. `user_email` is null when anonymous.',
      tags,
      authOptional: true,
      responses: { 200: { description: 'The capsule' }, 404: notFoundDoc },
    },
    run: ({ services, principal }, { id }) => viewCapsule(services, principal, id),
  }),
  defineOperation({
    method: 'patch',
    path: '/api/capsule/{id}',
    trpc: 'edit',
    access: session,
    input: { params: ZIdParam, body: ZCapsuleEdit },
    output: ZMyCapsule,
    notFound: capsuleNotFound,
    docs: {
      operationId: 'editCapsule',
      summary: 'Edit a capsule before its release',
      description: 'Any of the create fields; those left out keep their value. After its release a capsule can only be deleted (409).',
      tags,
      responses: { 200: { description: 'The capsule' }, 404: notFoundDoc, 409: { description: 'Already released' }, 422: invalid },
    },
    run: ({ services, principal }, { id, ...input }) => editCapsule(services, principal.user, id, input),
  }),
  defineOperation({
    method: 'delete',
    path: '/api/capsule/{id}',
    trpc: 'remove',
    access: session,
    input: { params: ZIdParam },
    output: ZMyCapsule,
    notFound: capsuleNotFound,
    docs: {
      operationId: 'deleteCapsule',
      summary: 'Delete a capsule',
      description: 'Released or not: it is gone for everyone, search included.',
      tags,
      responses: { 200: { description: 'The capsule as it was' }, 404: notFoundDoc },
    },
    run: ({ services, principal }, { id }) => deleteCapsule(services, principal.user, id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/capsule/{id}/publish',
    trpc: 'publish',
    access: session,
    input: { params: ZIdParam },
    output: ZMyCapsule,
    notFound: capsuleNotFound,
    docs: {
      operationId: 'publishCapsule',
      summary: 'Publish a capsule again',
      description:
        'Withdrawing the confessions consent unpublishes every capsule of yours; once the consent is given again, this makes one public again from its release date.',
      tags,
      responses: { 200: { description: 'The capsule' }, 403: { description: 'The confessions consent is withdrawn' }, 404: notFoundDoc },
    },
    run: ({ services, principal }, { id }) => publishCapsule(services, principal.user, id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/capsule/{id}/media',
    trpc: false,
    access: session,
    input: {
      params: ZIdParam,
      multipart: {
        schema: ZCapsuleMediaFields.extend({ file: z.file().describe('Audio: WebM, Ogg or WAV. Video: WebM or MP4.') }),
        maxBytes: CAPSULE_MEDIA_MAX_BODY_BYTES,
        read: readMedia,
      },
    },
    output: ZMyCapsule,
    status: 201,
    notFound: capsuleNotFound,
    docs: {
      operationId: 'addCapsuleMedia',
      summary: 'Add an audio or video item to a capsule',
      description:
        "Multipart: `file`, `type` (audio or video) and `captions?` (WebVTT text). Before the release only; after the text items, in the order added. The type is checked from the bytes; up to 50 MiB, within the plan's storage. A video needs the video consent.",
      tags,
      responses: {
        201: { description: 'Added: the capsule as its author sees it' },
        403: { description: "The confessions (or video) consent is withdrawn, or over the plan's storage" },
        404: notFoundDoc,
        409: { description: 'Already released' },
        413: { description: 'Over 50 MiB' },
        415: { description: 'The bytes are not audio (WebM, Ogg, WAV) or video (WebM, MP4) as `type` says' },
        422: { description: 'No file, a `type` that is not audio or video, captions that are not WebVTT, or past 20 items' },
      },
    },
    run: ({ services, principal }, { id, form }) => addCapsuleMedia(services, principal.user, id, form),
  }),
  defineOperation({
    method: 'delete',
    path: '/api/capsule/{id}/media/{item_id}',
    trpc: 'deleteMedia',
    access: session,
    input: { params: ZItemParams },
    output: ZMyCapsule,
    notFound: capsuleNotFound,
    docs: {
      operationId: 'deleteCapsuleMedia',
      summary: 'Remove an audio or video item',
      description: 'Before the release only; the file goes from storage too.',
      tags,
      responses: { 200: { description: 'Removed: the capsule as its author sees it' }, 404: notFoundDoc, 409: { description: 'Already released' } },
    },
    run: ({ services, principal }, { id, item_id }) => deleteCapsuleMedia(services, principal.user, id, item_id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/capsule/media/{id}',
    trpc: false,
    access: open,
    input: { params: ZIdParam },
    notFound: capsuleNotFound,
    docs: {
      operationId: 'getCapsuleMedia',
      summary: "A capsule item's audio or video",
      description: "The file, for anyone once its capsule is public, and for its author (signed in) before. An item's `data` names this path.",
      tags,
      authOptional: true,
      contentType: ['audio/*', 'video/*'],
      responses: {
        200: { description: 'audio/webm, audio/ogg, audio/wav, video/webm or video/mp4' },
        206: { description: 'The byte range asked for with `Range: bytes=…` (one range; players seek with it)' },
        404: notFoundDoc,
        416: { description: 'A range past the end of the file' },
      },
    },
    run: ({ services, principal, range }, { id }) => capsuleMediaResponse(services, principal, id, range),
  }),
  defineOperation({
    method: 'get',
    path: '/api/capsule/media/{id}/captions',
    trpc: false,
    access: open,
    input: { params: ZIdParam },
    notFound: capsuleNotFound,
    docs: {
      operationId: 'getCapsuleCaptions',
      summary: "A capsule item's captions",
      description: "WebVTT, when the author gave captions (the item's `captions` names this path); readable as the item is.",
      tags,
      authOptional: true,
      contentType: 'text/vtt',
      responses: { 200: { description: 'text/vtt' }, 404: notFoundDoc },
    },
    run: ({ services, principal }, { id }) => capsuleCaptionsResponse(services, principal, id),
  }),
] as const;
