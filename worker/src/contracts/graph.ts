import { z } from 'zod';

/** GET /api/graph/data (docs/api.md): the owner's legacy as nodes and typed links, no content. */
export const GRAPH_NODE_TYPES = ['owner', 'canary', 'message', 'vault_item', 'recipient', 'guardian'] as const;
export const GRAPH_LINK_TYPES = ['checks_in', 'wrote', 'sends_to', 'released_by', 'stores', 'given_to', 'guarded_by'] as const;
export const ZGraphData = z.object({
  nodes: z.array(z.object({ id: z.string(), type: z.enum(GRAPH_NODE_TYPES), label: z.string(), status: z.string().nullable() })),
  links: z.array(z.object({ source: z.string(), target: z.string(), type: z.enum(GRAPH_LINK_TYPES) })),
});
export type GraphData = z.infer<typeof ZGraphData>;
