import { ZPingParams } from '../../domains/canary/operations';
import type { RouteDoc } from '../../api/route-doc';

/** What the /api/ping/{token} catch-all answers (domains/canary/rest.ts); the canary operations are domains/canary/operations.ts. */
export const routes: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/ping/{token}',
    operationId: 'pingWithGet',
    summary: 'A GET never checks in (405)',
    description: 'Mail scanners and link previewers fetch URLs by themselves, so any method but POST answers 405 with `Allow: POST` and changes nothing.',
    tags: ['Canaries'],
    auth: 'none',
    request: { params: ZPingParams },
    responses: { 405: { description: 'Use POST (the `Allow: POST` header says so)' } },
  },
];
