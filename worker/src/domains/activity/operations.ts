import { z } from 'zod';
import { defineOperation } from '../../api/operation';
import { ZActivity, ZActivityQuery } from '../../contracts/activity';
import { listRecentActivity } from './list-activity';

/** GET /api/activity?limit=N: the dashboard's Recent Activity (documented in docs/api.md). */
export const activityOperations = [
  defineOperation({
    method: 'get',
    path: '/api/activity',
    trpc: 'recent',
    access: { kind: 'session' },
    input: { query: ZActivityQuery },
    output: z.array(ZActivity),
    docs: {
      operationId: 'recentActivity',
      summary: 'Recent activity',
      description: "The dashboard's Recent Activity: check-ins, canary and dead-man's switch events, newest first.",
      tags: ['Canaries'],
      responses: { 200: { description: 'Newest first' } },
    },
    run: ({ services, principal }, { limit }) => listRecentActivity(services, principal.user.id, limit),
  }),
] as const;
