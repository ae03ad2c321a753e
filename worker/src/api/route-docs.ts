import type { RouteDoc } from '../api/route-doc';
import type { AnyOperation } from './operation';

/** The OpenAPI entry (and API-key policy entry) of an operation with a REST path. */
export function toRouteDoc(op: AnyOperation & { path: string }): RouteDoc {
  const status = op.status ?? 200;
  const request: RouteDoc['request'] = {};
  if (op.input.params) request.params = op.input.params;
  if (op.input.query) request.query = op.input.query;
  if (op.input.body) request.body = op.input.body;
  if (op.docs.requestHeaders?.length) request.headers = op.docs.requestHeaders;
  if (op.input.multipart) {
    request.body = op.input.multipart.schema;
    request.contentType = 'multipart/form-data';
  }
  return {
    method: op.method,
    path: op.path,
    operationId: op.docs.operationId,
    summary: op.docs.summary,
    ...(op.docs.description ? { description: op.docs.description } : {}),
    tags: op.docs.tags,
    // A public operation that also reads a session (a check-in) is RouteDoc's optional-bearer `session`
    // route: the document shows the bearer as optional, and the key policy refuses keys as on any session route.
    auth: op.access.kind === 'public' ? (op.docs.authOptional ? 'session' : 'none') : op.access.kind === 'key' ? 'session-or-key' : op.access.kind,
    ...(op.access.kind === 'session-or-key' || op.access.kind === 'key' ? { scope: op.access.scope } : {}),
    ...(op.docs.authOptional ? { authOptional: true } : {}),
    ...(op.docs.limits?.length ? { limits: op.docs.limits } : {}),
    ...(Object.keys(request).length ? { request } : {}),
    responses: {
      ...(op.docs.reserved
        ? {}
        : {
            [status]: {
              description: op.docs.responses?.[status]?.description ?? 'OK',
              ...(op.output ? { schema: op.output } : {}),
              ...(op.docs.contentType ? { contentType: op.docs.contentType } : {}),
            },
          }),
      ...Object.fromEntries(Object.entries(op.docs.responses ?? {}).filter(([s]) => Number(s) !== status)),
    },
  };
}

export const routeDocsOf = (operations: readonly AnyOperation[]): RouteDoc[] =>
  operations.filter((op): op is AnyOperation & { path: string } => op.path !== null).map(toRouteDoc);
