import { defineOperation } from '../../api/operation';
import { ZGraphData } from '../../contracts/graph';
import { readLegacyGraph } from './legacy-graph';

/** GET /api/graph/data (docs/api.md; docs/decisions/billing.md). The page stays a disabled placeholder. */
export const graphOperations = [
  defineOperation({
    method: 'get',
    path: '/api/graph/data',
    trpc: 'data',
    access: { kind: 'session' },
    input: {},
    output: ZGraphData,
    docs: {
      operationId: 'legacyGraph',
      summary: 'The legacy graph: nodes and links',
      description:
        'The owner, their canaries, messages, vault items, recipients and guardians as `nodes`, and typed `links`: checks_in, wrote, sends_to, released_by (a message by the canaries or guardians whose signal releases it), stores, given_to, guarded_by. No message text and no file content or name.',
      tags: ['Legacy'],
    },
    run: ({ services, principal }) => readLegacyGraph(services, principal.user),
  }),
];
