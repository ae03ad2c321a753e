import { z } from 'zod';
import type { RouteDoc } from '../../api/route-doc';

/** GET /api/health (app.ts). */
export const routes: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/health',
    operationId: 'health',
    summary: 'Liveness',
    tags: ['Reference'],
    auth: 'none',
    responses: { 200: { description: 'The Worker answers', schema: z.object({ status: z.literal('ok') }) } },
  },
];
