import { z } from 'zod';
import { ZActivity } from '../../contracts/canary';
import type { RouteDoc } from '../route-doc';

/** GET /api/activity (domains/activity/rest.ts). */
export const routes: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/activity',
    operationId: 'recentActivity',
    summary: 'Recent activity',
    description: "The dashboard's Recent Activity: check-ins, canary and dead-man's switch events, newest first.",
    tags: ['Canaries'],
    auth: 'session',
    request: {
      query: z.object({ limit: z.number().int().min(1).max(100).default(20).describe('How many entries (clamped to 1…100)') }),
    },
    responses: { 200: { description: 'Newest first', schema: z.array(ZActivity) } },
  },
];
