import { z } from 'zod';
import { ZOutboxQuery } from '../../contracts/notify';
import type { RouteDoc } from '../route-doc';
import { ZOutboxMessage } from '../schemas';

const tags = ['Outbox (local)'];

/** /api/outbox: the caller's local mailbox, standing in for every channel (domains/outbox/rest.ts). */
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
    summary: 'Your local mailbox: what would have been sent to you (local only)',
    description:
      'Outside production nothing is really sent: every email, SMS, call and push is stored instead. This lists, newest first, only the ones addressed to the signed-in account (its email, phone, devices and notices). In production this route does not exist (404).',
    tags,
    auth: 'session',
    request: { query: ZOutboxQuery },
    responses: {
      200: { description: 'Stored deliveries', schema: z.object({ enabled: z.literal(true), messages: z.array(ZOutboxMessage) }) },
      404: { description: 'Production: no such route' },
      422: { description: '`limit` is not a whole number from 1 to 500' },
    },
  },
  {
    method: 'get',
    path: '/api/outbox/all',
    operationId: 'readEveryOutbox',
    summary: "Every account's stored deliveries (operator view, local only)",
    description:
      'Every stored delivery, whoever it was for, including those with no known recipient account. Exists only when the operator sets OUTBOX_OPERATOR_VIEW = "true", and never in production (404).',
    tags,
    auth: 'session',
    request: { query: ZOutboxQuery },
    responses: {
      200: { description: 'Stored deliveries of every account', schema: z.object({ enabled: z.literal(true), messages: z.array(ZOutboxMessage) }) },
      404: { description: 'The operator view is off (the default), or production' },
      422: { description: '`limit` is not a whole number from 1 to 500' },
    },
  },
];
