import { ZDeadman, ZDeadmanSetupInput } from '../../contracts/canary';
import type { RouteDoc } from '../route-doc';
import { ZScheduledDeletions } from '../schemas';

/** /api/deadman and /api/legal/deletions (domains/deadman/rest.ts, domains/legal/rest.ts). */
export const routes: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/deadman',
    operationId: 'getDeadman',
    summary: "The dead-man's switch",
    tags: ["Dead-man's switch"],
    auth: 'session',
    responses: { 200: { description: 'Its state', schema: ZDeadman } },
  },
  {
    method: 'post',
    path: '/api/deadman/setup',
    operationId: 'setupDeadman',
    summary: "Arm the dead-man's switch",
    description: 'Without a check-in for `hours`, the account is scheduled for deletion (after a final notice). Setting it again restarts the count.',
    tags: ["Dead-man's switch"],
    auth: 'session',
    request: { body: ZDeadmanSetupInput },
    responses: { 200: { description: 'Armed', schema: ZDeadman } },
  },
  {
    method: 'post',
    path: '/api/deadman/cancel',
    operationId: 'cancelDeadman',
    summary: "Disarm the dead-man's switch",
    tags: ["Dead-man's switch"],
    auth: 'session',
    responses: { 200: { description: 'Disarmed (`active: false`)', schema: ZDeadman } },
  },
  {
    method: 'get',
    path: '/api/legal/deletions',
    operationId: 'listScheduledDeletions',
    summary: 'Deletions that will happen',
    description: 'Listed beforehand: an armed dead-man\'s switch shows as a projected item (`status: "armed"`), a passed one as `scheduled`.',
    tags: ['Legal'],
    auth: 'session',
    responses: { 200: { description: 'Scheduled deletions', schema: ZScheduledDeletions } },
  },
];
