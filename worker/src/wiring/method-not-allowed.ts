import type { Context } from 'hono';
import { ROUTE_DOCS } from '../openapi/routes';
import type { AppEnv } from '../middleware/context';

/**
 * A known path asked with a method it does not have answers 405 with `Allow` (RFC 9110 §15.5.6), and
 * `OPTIONS` lists what is allowed (204) — rather than the 404 of a path that does not exist. The methods
 * come from ROUTE_DOCS, the same list the OpenAPI document and the API-key policy read, so a new
 * operation is covered without anyone remembering to.
 */
const ROUTES = ROUTE_DOCS.map((d) => ({
  pattern: new RegExp(`^${d.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
  method: d.method.toUpperCase(),
}));

/** The methods `path` answers (HEAD wherever GET: Hono answers it from the GET route), or none for an unknown path. */
export function allowedMethods(path: string): string[] {
  const methods = new Set(ROUTES.filter((r) => r.pattern.test(path)).map((r) => r.method));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/** 405 or the OPTIONS answer for a known path; null when the path is unknown (then 404). */
export function methodNotAllowed(c: Context<AppEnv>): Response | null {
  const path = new URL(c.req.url).pathname;
  if (!path.startsWith('/api/') || path.startsWith('/api/trpc/')) return null;
  const methods = allowedMethods(path);
  if (!methods.length) return null;
  const allow = [...methods, 'OPTIONS'].join(', ');
  if (c.req.method === 'OPTIONS') return c.body(null, 204, { Allow: allow });
  return c.json({ detail: `${c.req.method} is not allowed on ${path}: use ${methods.filter((m) => m !== 'HEAD').join(' or ')}` }, 405, { Allow: allow });
}
