import { z } from 'zod';
import { defineOperation } from '../../api/operation';
import { ZOutboxPage, ZOutboxQuery } from '../../contracts/outbox';
import { operatorViewEnabled, outboxEnabled, readEveryOutbox, readOutbox } from './outbox-access';

/** /api/outbox: the caller's local mailbox, standing in for every channel (docs/decisions/local-outbox.md). */
const tags = ['Outbox (local)'];
const badLimit = { description: '`limit` is not a whole number from 1 to 500' };

export const outboxOperations = [
  defineOperation({
    method: 'get',
    path: '/api/outbox/status',
    trpc: 'status',
    // In every environment: the web app shows its Outbox link only when this says so.
    access: { kind: 'public' },
    input: {},
    output: z.object({ enabled: z.boolean() }),
    docs: { operationId: 'outboxStatus', summary: 'Whether the outbox exists here', tags, responses: { 200: { description: '`enabled` is false in production' } } },
    run: ({ services }) => ({ enabled: outboxEnabled(services.env) }),
  }),
  defineOperation({
    method: 'get',
    path: '/api/outbox',
    trpc: 'list',
    access: { kind: 'session' },
    // In production the route does not exist, for anyone (checked before the session).
    exists: outboxEnabled,
    input: { query: ZOutboxQuery },
    output: ZOutboxPage,
    docs: {
      operationId: 'readOutbox',
      summary: 'Your local mailbox: what would have been sent to you (local only)',
      description:
        'Outside production nothing is really sent: every email, SMS, call and push is stored instead. This lists, newest first, only the ones addressed to the signed-in account (its email, phone, devices and notices). In production this route does not exist (404).',
      tags,
      responses: { 200: { description: 'Stored deliveries' }, 404: { description: 'Production: no such route' }, 422: badLimit },
    },
    run: ({ services, principal }, { limit }) => readOutbox(services, principal.user.id, limit),
  }),
  defineOperation({
    method: 'get',
    path: '/api/outbox/all',
    trpc: 'listAll',
    access: { kind: 'session' },
    // Without OUTBOX_OPERATOR_VIEW = "true" (and always in production) the route does not exist.
    exists: operatorViewEnabled,
    input: { query: ZOutboxQuery },
    output: ZOutboxPage,
    docs: {
      operationId: 'readEveryOutbox',
      summary: "Every account's stored deliveries (operator view, local only)",
      description:
        'Every stored delivery, whoever it was for, including those with no known recipient account. Exists only when the operator sets OUTBOX_OPERATOR_VIEW = "true", and never in production (404).',
      tags,
      responses: {
        200: { description: 'Stored deliveries of every account' },
        404: { description: 'The operator view is off (the default), or production' },
        422: badLimit,
      },
    },
    run: ({ services }, { limit }) => readEveryOutbox(services, limit),
  }),
] as const;
