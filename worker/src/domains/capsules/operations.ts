import { z } from 'zod';
import { ZIdParam } from '../../api/ids';
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
} from '../../contracts/capsules';
import { capsuleNotFound } from './capsule-records';
import { browseCapsules, listCapsules, myCapsules, viewCapsule } from './read-capsules';
import { createCapsule, deleteCapsule, editCapsule, publishCapsule } from './write-capsule';

/**
 * /api/capsule/* (issue 17 section 1; docs/decisions/community.md): confession capsules. Reading
 * released ones is public; writing needs a session and the `confessions` consent. An anonymous
 * capsule's answers never carry its author.
 */
const tags = ['Capsules'];
const session = { kind: 'session' } as const;
const open = { kind: 'public' } as const;
const notFoundDoc = { description: 'No such capsule, not released yet, or not yours' };
const invalid = { description: 'A field is missing or invalid (`detail` lists each)' };

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
] as const;
