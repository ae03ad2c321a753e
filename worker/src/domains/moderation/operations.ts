import { z } from 'zod';
import { ZIdParam } from '../../contracts/ids';
import { defineOperation } from '../../api/operation';
import { capsuleNotFound } from '../capsules/capsule-records';
import { postNotFound } from '../memorials/memorial-records';
import { deletePost, reportTarget } from './report';
import { decide, moderationStatus, notInQueue, reviewQueue } from './review';

/**
 * Reports and removal (docs/decisions/community.md "Reports"): any signed-in
 * person reports a capsule or a post; after 3 distinct reports it is hidden pending review. A post's
 * author and the memorial's creator remove a post. The moderators' queue is not built yet.
 */
const session = { kind: 'session' } as const;
const ZReported = z.object({ reported: z.literal(true) });
// Optional here so that the queue check comes first (a 422 must not tell anyone an item exists); required by the service.
const ZDecision = z.object({ decision: z.enum(['restore', 'remove'], { message: 'decision must be restore or remove' }).optional() });
const ZDecided = z.object({ type: z.enum(['capsule', 'post']), id: z.string(), decision: z.enum(['restore', 'remove']) });
const ZQueueItem = z.object({
  type: z.enum(['capsule', 'post']),
  id: z.string(),
  label: z.string(),
  text: z.string(),
  reports: z.number().int(),
  hidden_at: z.string(),
});
const decideDocs = (what: string) => ({
  summary: `Decide on a hidden ${what}`,
  description: `Moderators only (MODERATOR_EMAILS). \`restore\` makes it public again and clears its reports; \`remove\` deletes it and tells its author. Anyone else, or a ${what} that is not hidden: 404.`,
  tags: ['Moderation'],
  responses: { 200: { description: 'Decided' }, 404: { description: 'Not in the review queue' }, 422: { description: 'decision is not restore or remove' } },
});

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
  defineOperation({
    method: 'get',
    path: '/api/moderation/status',
    trpc: 'status',
    access: session,
    input: {},
    output: z.object({ moderator: z.boolean(), waiting: z.number().int() }),
    docs: {
      operationId: 'moderationStatus',
      summary: 'Whether you moderate',
      description: '`moderator` (MODERATOR_EMAILS) and, for moderators, how many hidden items `waiting` for a decision (0 for anyone else).',
      tags: ['Moderation'],
      responses: { 200: { description: 'The status' } },
    },
    run: ({ services, principal }) => moderationStatus(services, principal.user),
  }),
  defineOperation({
    method: 'get',
    path: '/api/moderation/queue',
    trpc: 'queue',
    access: session,
    input: {},
    output: z.array(ZQueueItem),
    docs: {
      operationId: 'moderationQueue',
      summary: 'The review queue',
      description: 'Every hidden capsule and post with its report count, oldest first. Moderators only (403).',
      tags: ['Moderation'],
      responses: { 200: { description: 'Hidden items' }, 403: { description: 'Not a moderator' } },
    },
    run: ({ services, principal }) => reviewQueue(services, principal.user),
  }),
  defineOperation({
    method: 'post',
    path: '/api/moderation/capsule/{id}',
    trpc: 'decideCapsule',
    access: session,
    input: { params: ZIdParam, body: ZDecision },
    output: ZDecided,
    notFound: notInQueue,
    docs: { operationId: 'decideCapsule', ...decideDocs('capsule') },
    run: ({ services, principal }, { id, decision }) => decide(services, principal.user, 'capsule', id, decision),
  }),
  defineOperation({
    method: 'post',
    path: '/api/moderation/post/{id}',
    trpc: 'decidePost',
    access: session,
    input: { params: ZIdParam, body: ZDecision },
    output: ZDecided,
    notFound: notInQueue,
    docs: { operationId: 'decidePost', ...decideDocs('post') },
    run: ({ services, principal }, { id, decision }) => decide(services, principal.user, 'post', id, decision),
  }),
] as const;
