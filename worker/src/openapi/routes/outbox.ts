import { z } from 'zod';
import { ZOutboxQuery } from '../../contracts/notify';
import type { RouteDoc } from '../route-doc';
import { ZOutboxMessage } from '../schemas';

const tags = ['Outbox (local)'];

/** /api/outbox: the local stand-in for every channel (domains/outbox/rest.ts). */
export const routes: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/outbox/status',
    operationId: 'outboxStatus',
    summary: 'Whether the outbox exists here',
    tags,
    auth: 'none',
    responses: { 200: { description: '`enabled` is false in production', schema: z.object({ enabled: z.boolean() }) } },
  },
  {
    method: 'get',
    path: '/api/outbox',
    operationId: 'readOutbox',
    summary: 'What would have been sent (local only)',
    description: 'Outside production nothing is really sent: every email, SMS, call and push is stored here instead, newest first, whoever it was for. In production this route does not exist (404).',
    tags,
    auth: 'session',
    request: { query: ZOutboxQuery },
    responses: {
      200: { description: 'Stored deliveries', schema: z.object({ enabled: z.literal(true), messages: z.array(ZOutboxMessage) }) },
      404: { description: 'Production: no such route' },
      422: { description: '`limit` is not a whole number from 1 to 500' },
    },
  },
];
