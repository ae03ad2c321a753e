import { z } from 'zod';
import { ZActivity, ZActivityQuery } from '../../contracts/canary';
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
    request: { query: ZActivityQuery },
    responses: { 200: { description: 'Newest first', schema: z.array(ZActivity) } },
  },
];
