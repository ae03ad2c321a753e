import { z } from 'zod';
import { ZIdParam } from '../../api/ids';
import { defineOperation } from '../../api/operation';
import { capsuleNotFound } from '../capsules/capsule-records';
import { postNotFound } from '../memorials/memorial-records';
import { deletePost, reportTarget } from './report';

/**
 * Reports and removal (issue 17 section 2 "Moderation"; docs/decisions/community.md): any signed-in
 * person reports a capsule or a post; after 3 distinct reports it is hidden pending review. A post's
 * author and the memorial's creator remove a post. The moderators' queue is not built yet.
 */
const session = { kind: 'session' } as const;
const ZReported = z.object({ reported: z.literal(true) });

export const moderationOperations = [
  defineOperation({
    method: 'post',
    path: '/api/capsule/{id}/report',
    trpc: 'reportCapsule',
    access: session,
    input: { params: ZIdParam },
    output: ZReported,
    notFound: capsuleNotFound,
    docs: {
      operationId: 'reportCapsule',
      summary: 'Report a capsule',
      description: 'One report per person; after 3 people report it, it is hidden pending review. Your own: 422.',
      tags: ['Capsules'],
      responses: { 200: { description: 'Reported' }, 404: { description: 'No such public capsule' }, 422: { description: 'Your own capsule' } },
    },
    run: ({ services, principal }, { id }) => reportTarget(services, principal.user, 'capsule', id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/memorial/post/{id}/report',
    trpc: 'reportPost',
    access: session,
    input: { params: ZIdParam },
    output: ZReported,
    notFound: postNotFound,
    docs: {
      operationId: 'reportPost',
      summary: 'Report a memorial post',
      description: 'One report per person; after 3 people report it, it is hidden pending review. Your own: 422.',
      tags: ['Memorials'],
      responses: { 200: { description: 'Reported' }, 404: { description: 'No such post' }, 422: { description: 'Your own post' } },
    },
    run: ({ services, principal }, { id }) => reportTarget(services, principal.user, 'post', id),
  }),
  defineOperation({
    method: 'delete',
    path: '/api/memorial/post/{id}',
    trpc: 'deletePost',
    access: session,
    input: { params: ZIdParam },
    output: z.object({ id: z.string(), deleted: z.literal(true) }),
    notFound: postNotFound,
    docs: {
      operationId: 'deleteMemorialPost',
      summary: 'Remove a memorial post',
      description: 'By its author, or by the creator of the memorial it is on. Its candles go with it.',
      tags: ['Memorials'],
      responses: { 200: { description: 'Removed' }, 404: { description: 'No such post, or not yours to remove' } },
    },
    run: ({ services, principal }, { id }) => deletePost(services, principal.user, id),
  }),
] as const;
