import type { Context, Next } from 'hono';
import type { ApiScope, RouteDoc } from '../api/route-doc';
import { ROUTE_DOCS } from '../openapi/routes';
import { AppError } from '../lib/errors';
import { isManagementPath } from '../api/key-floor';
import type { KeyCall } from '../domains/developer/authenticate-key';
import { rateLimitHeaders, retryAfterSeconds } from '../domains/developer/quota';
import type { AppEnv } from '../middleware/context';
import { KEYS_CANNOT_MANAGE } from '../middleware/require-principal';

/**
 * What an API key may call (docs/decisions/api-keys.md). ROUTE_DOCS (worker/src/openapi/routes/) is the
 * single source: a key opens a route only when its entry says `auth: 'session-or-key'` and the key holds
 * the entry's `scope`. Everything else — routes marked `session` or `none`, routes missing from
 * ROUTE_DOCS, tRPC — answers 403 to a key. Sessions are never held to this policy.
 */
export { KEYS_CANNOT_MANAGE, isManagementPath };
export const KEY_TRPC_REFUSED = 'API keys work with the REST API only (see /api/openapi.json); /api/trpc needs a signed-in session';
export const KEY_ROUTE_UNKNOWN = 'API keys cannot call this route: it is not part of the developer API (see /api/openapi.json)';
export const keySessionOnly = (method: string, path: string) => `${method} ${path} needs a signed-in session; API keys cannot call it`;
export const keyMissingScope = (scope: ApiScope) => `This API key lacks the scope ${scope}`;

export type KeyRouteAccess = { kind: 'open'; route: RouteDoc; scope?: ApiScope } | { kind: 'public' } | { kind: 'refused'; detail: string };

interface CompiledRoute {
  doc: RouteDoc;
  pattern: RegExp;
  /** Literal segments: the more, the more specific (`/api/message/pending` beats `/api/message/{id}`). */
  literals: number;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function compileRoutes(docs: readonly RouteDoc[]): Map<string, CompiledRoute[]> {
  const byMethod = new Map<string, CompiledRoute[]>();
  for (const doc of docs) {
    const segments = doc.path.split('/');
    const pattern = new RegExp(`^${segments.map((s) => (/^\{[^/{}]+\}$/.test(s) ? '[^/]+' : escapeRegExp(s))).join('/')}$`);
    const literals = segments.filter((s) => !/^\{[^/{}]+\}$/.test(s)).length;
    const list = byMethod.get(doc.method) ?? [];
    list.push({ doc, pattern, literals });
    byMethod.set(doc.method, list);
  }
  for (const list of byMethod.values()) list.sort((a, b) => b.literals - a.literals);
  return byMethod;
}

/** The documented route a request is for: method + path against the templates (`{id}` = one segment). */
export function matchRoute(table: Map<string, CompiledRoute[]>, method: string, path: string): RouteDoc | undefined {
  const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  return table.get(m)?.find((r) => r.pattern.test(path))?.doc;
}

/** Whether (and with which scope) a key may call `method path`, before the key is even looked up. */
export function keyRouteAccess(method: string, path: string, table = defaultTable()): KeyRouteAccess {
  if (path === '/api/trpc' || path.startsWith('/api/trpc/')) return { kind: 'refused', detail: KEY_TRPC_REFUSED };
  if (isManagementPath(path)) return { kind: 'refused', detail: KEYS_CANNOT_MANAGE };
  const route = matchRoute(table, method, path);
  if (!route) return { kind: 'refused', detail: KEY_ROUTE_UNKNOWN };
  // A public route (the API reference, health, ping…) ignores credentials, as it would without them:
  // a client that sends its key on every request can still read /api/openapi.json.
  if (route.auth === 'none') return { kind: 'public' };
  if (route.auth !== 'session-or-key') return { kind: 'refused', detail: keySessionOnly(route.method.toUpperCase(), route.path) };
  return { kind: 'open', route, scope: route.scope };
}

/** What a key with `scopes` gets for `method path`: null = allowed; else the status and detail. */
export function keyDecision(access: KeyRouteAccess, scopes: readonly ApiScope[]): null | { status: 403; detail: string } {
  if (access.kind === 'refused') return { status: 403, detail: access.detail };
  if (access.kind === 'public') return null;
  if (access.scope && !scopes.includes(access.scope)) return { status: 403, detail: keyMissingScope(access.scope) };
  return null;
}

let table: Map<string, CompiledRoute[]> | undefined;
/** ROUTE_DOCS compiled once per isolate, on the first key call. */
const defaultTable = () => (table ??= compileRoutes(ROUTE_DOCS));

/**
 * Holds an authenticated key call to the policy: 403 out of policy or scope, 429 past the quota (with
 * Retry-After), and X-RateLimit-* on every answer, refused or not. Called by `authenticate`.
 */
export async function enforceApiKeyPolicy(c: Context<AppEnv>, next: Next, access: KeyRouteAccess, call: KeyCall) {
  const headers = rateLimitHeaders(call.quota);
  const refused = keyDecision(access, call.scopes);
  if (refused) throw new AppError('FORBIDDEN', refused.detail, headers);
  if (!call.accepted) {
    if (call.refusal === 'quota') {
      const retryAfter = retryAfterSeconds(c.get('services').now(), call.quota.resetAt);
      throw new AppError(
        'TOO_MANY_REQUESTS',
        `Monthly API call limit reached (${call.quota.limit} calls on your plan); it resets on ${call.quota.resetAt.toISOString().slice(0, 10)}`,
        { ...headers, 'Retry-After': String(retryAfter) },
      );
    }
    // Not counted for any other reason: refuse rather than serve an unmetered call.
    throw new AppError('FORBIDDEN', access.kind === 'open' && access.scope ? keyMissingScope(access.scope) : KEY_ROUTE_UNKNOWN, headers);
  }
  await next();
  for (const [k, v] of Object.entries(headers)) c.header(k, v);
}
