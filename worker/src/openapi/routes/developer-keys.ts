import type { RouteDoc } from '../route-doc';

/** /api/developer/keys and the key-only death report (filled by the API keys work). */
export const routes: RouteDoc[] = [];
