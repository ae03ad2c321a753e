import { Hono } from 'hono';
import type { AppEnv } from '../middleware/context';
import { openApiJson } from './document';

/**
 * The Scalar reference's standalone bundle, copied from @scalar/api-reference into the web build by
 * web/vite.config.ts and served as a static asset of this same origin: the page works offline.
 */
export const SCALAR_BUNDLE_PATH = '/vendor/scalar/standalone.js';

/**
 * /api/docs's own policy (the API's default is `default-src 'none'`): scripts from this origin only
 * (the bundle; the page has no inline script), inline styles (Scalar injects its stylesheet and sets
 * style attributes), images and fonts from this origin or data: URLs, fetches to this origin only
 * (the document and "Try it" requests).
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Scalar's options: no web fonts from its CDN, no telemetry, none of its hosted extras (AI agent, MCP
 * generator, developer toolbar), so nothing on the page points away from this origin.
 */
const SCALAR_CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
};

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>Afterword API reference</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
  </head>
  <body>
    <noscript>The interactive reference needs JavaScript. The OpenAPI document itself is at <a href="/api/openapi.json">/api/openapi.json</a>.</noscript>
    <script id="api-reference" data-url="/api/openapi.json" data-configuration="${escapeAttribute(JSON.stringify(SCALAR_CONFIGURATION))}"></script>
    <script src="${SCALAR_BUNDLE_PATH}"></script>
  </body>
</html>
`;

/** GET /api/openapi.json and GET /api/docs (mounted at /api; documented in openapi/routes/reference.ts). */
export const referenceRoutes = new Hono<AppEnv>()
  .get('/openapi.json', (c) =>
    c.body(openApiJson(new URL(c.req.url).origin), 200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-cache',
      // A public document: tools on other origins (editors, code generators) may fetch it.
      'Access-Control-Allow-Origin': '*',
    }),
  )
  .get('/docs', (c) => c.html(DOCS_HTML, 200, { 'Content-Security-Policy': DOCS_CSP, 'Cache-Control': 'no-cache' }));
