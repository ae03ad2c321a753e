import type { RouteDoc } from '../route-doc';

/** /api/developer/webhooks (filled by the webhooks work). */
export const routes: RouteDoc[] = [];
