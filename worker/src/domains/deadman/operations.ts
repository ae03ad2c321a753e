import { defineOperation } from '../../api/operation';
import { ZDeadman, ZDeadmanSetupInput } from '../../contracts/deadman';
import { getDeadman } from './deadman-view';
import { cancelDeadman, setupDeadman } from './setup-deadman';

/** docs/api.md: /api/deadman/setup and /api/deadman/cancel (plus GET /api/deadman, its state). */
const tags = ["Dead-man's switch"];

export const deadmanOperations = [
  defineOperation({
    method: 'get',
    path: '/api/deadman',
    trpc: 'get',
    access: { kind: 'session' },
    input: {},
    output: ZDeadman,
    docs: { operationId: 'getDeadman', summary: "The dead-man's switch", tags, responses: { 200: { description: 'Its state' } } },
    run: ({ services, principal }) => getDeadman(services, principal.user.id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/deadman/setup',
    trpc: 'setup',
    access: { kind: 'session' },
    input: { body: ZDeadmanSetupInput },
    output: ZDeadman,
    docs: {
      operationId: 'setupDeadman',
      summary: "Arm the dead-man's switch",
      description: 'Without a check-in for `hours`, the account is scheduled for deletion (after a final notice). Setting it again restarts the count.',
      tags,
      responses: { 200: { description: 'Armed' } },
    },
    run: ({ services, principal }, input) => setupDeadman(services, principal.user.id, input),
  }),
  defineOperation({
    method: 'post',
    path: '/api/deadman/cancel',
    trpc: 'cancel',
    access: { kind: 'session' },
    input: {},
    output: ZDeadman,
    docs: { operationId: 'cancelDeadman', summary: "Disarm the dead-man's switch", tags, responses: { 200: { description: 'Disarmed (`active: false`)' } } },
    run: ({ services, principal }) => cancelDeadman(services, principal.user.id),
  }),
] as const;
