import type { RouteDoc } from '../../api/route-doc';

/** This document and its interactive reference page (openapi/rest.ts). */
export const routes: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/openapi.json',
    operationId: 'openApiDocument',
    summary: 'This OpenAPI 3.1 document',
    tags: ['Reference'],
    auth: 'none',
    responses: { 200: { description: 'The document, generated from the route registry and the zod contracts', contentType: 'application/json' } },
  },
  {
    method: 'get',
    path: '/api/docs',
    operationId: 'apiReference',
    summary: 'The interactive API reference (HTML)',
    description: 'A page that renders this document with Scalar, served entirely by this app (no CDN).',
    tags: ['Reference'],
    auth: 'none',
    responses: { 200: { description: 'The reference page', contentType: 'text/html' } },
  },
];
