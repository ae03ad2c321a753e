import { defineOperation } from '../../api/operation';
import { ZScheduledDeletions } from '../../contracts/legal';
import { listScheduledDeletions } from './list-deletions';

/** SPEC section 7: /api/legal/* (deletions now; consents and export arrive with data rights). */
export const legalOperations = [
  defineOperation({
    method: 'get',
    path: '/api/legal/deletions',
    trpc: 'deletions',
    access: { kind: 'session' },
    input: {},
    output: ZScheduledDeletions,
    docs: {
      operationId: 'listScheduledDeletions',
      summary: 'Deletions that will happen',
      description: 'Listed beforehand: an armed dead-man\'s switch shows as a projected item (`status: "armed"`), a passed one as `scheduled`.',
      tags: ['Legal'],
      responses: { 200: { description: 'Scheduled deletions' } },
    },
    run: ({ services, principal }) => listScheduledDeletions(services, principal.user.id),
  }),
] as const;
