import { env } from 'cloudflare:test';
import fc from 'fast-check';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_SCOPES, type ApiScope } from '../src/contracts/developer';
import {
  compileRoutes,
  isManagementPath,
  KEY_ROUTE_UNKNOWN,
  KEY_TRPC_REFUSED,
  keyMissingScope,
  keyRouteAccess,
  KEYS_CANNOT_MANAGE,
  keySessionOnly,
  matchRoute,
} from '../src/wiring/api-key-policy';
import { authenticate } from '../src/wiring/authenticate';
import type { AppEnv } from '../src/middleware/context';
import { handleError } from '../src/middleware/errors';
import { requestContext } from '../src/middleware/request-context';
import type { RouteDoc } from '../src/api/route-doc';
import { ROUTE_DOCS } from '../src/openapi/routes';
import { flushPendingUsage } from '../src/domains/developer/usage-buffer';
import { createDb } from '@afterword/db';
import { api, signedInUser } from './helpers/api';

const doc = (method: RouteDoc['method'], path: string, auth: RouteDoc['auth'], scope?: ApiScope): RouteDoc => ({
  method,
  path,
  auth,
  scope,
  operationId: `${method}${path}`,
  summary: '',
  tags: [],
  responses: {},
});

/** Every non-empty subset of the scopes (a key needs at least one). */
const SUBSETS: ApiScope[][] = Array.from({ length: 2 ** API_SCOPES.length - 1 }, (_, i) => API_SCOPES.filter((_, b) => ((i + 1) >> b) & 1));
const subsetKey = (scopes: readonly ApiScope[]) => scopes.join(' ');

/** A concrete request path for a template: each `{param}` becomes one segment (a UUID). */
const concrete = (path: string) => path.replace(/\{[^/{}]+\}/g, () => crypto.randomUUID());

/** The rule under test, stated from the outside: what a key with `scopes` may call. */
function keyMayCall(route: RouteDoc, scopes: readonly ApiScope[]) {
  if (route.auth !== 'session-or-key') return false;
  if (isManagementPath(route.path)) return false;
  return !route.scope || scopes.includes(route.scope);
}

const POLICY_DETAILS = (route: RouteDoc) => [
  KEYS_CANNOT_MANAGE,
  KEY_TRPC_REFUSED,
  KEY_ROUTE_UNKNOWN,
  keySessionOnly(route.method.toUpperCase(), route.path),
  ...API_SCOPES.map(keyMissingScope),
];

describe('matching a request against ROUTE_DOCS', () => {
  const table = compileRoutes([
    doc('get', '/api/message/{id}', 'session-or-key', 'read:messages'),
    doc('get', '/api/message/pending', 'session-or-key', 'read:messages'),
    doc('get', '/api/message/{id}/audio', 'session'),
    doc('post', '/api/canary/create', 'session'),
    doc('get', '/api/canary/status', 'session-or-key', 'read:canary'),
  ]);

  it('reads {param} as exactly one segment and prefers literal segments', () => {
    expect(matchRoute(table, 'GET', '/api/message/abc')?.path).toBe('/api/message/{id}');
    expect(matchRoute(table, 'GET', '/api/message/pending')?.path).toBe('/api/message/pending');
    expect(matchRoute(table, 'GET', '/api/message/abc/audio')?.path).toBe('/api/message/{id}/audio');
    expect(matchRoute(table, 'GET', '/api/message/a/b')).toBeUndefined();
    expect(matchRoute(table, 'GET', '/api/message/')).toBeUndefined();
    expect(matchRoute(table, 'GET', '/api/canary/status/')).toBeUndefined();
    expect(matchRoute(table, 'HEAD', '/api/canary/status')?.path).toBe('/api/canary/status');
    expect(matchRoute(table, 'POST', '/api/canary/status')).toBeUndefined();
  });

  it('decides before any lookup: unknown, session-only, tRPC and management routes are refused', () => {
    expect(keyRouteAccess('GET', '/api/canary/status', table)).toMatchObject({ kind: 'open', scope: 'read:canary' });
    expect(keyRouteAccess('POST', '/api/canary/create', table)).toEqual({ kind: 'refused', detail: keySessionOnly('POST', '/api/canary/create') });
    expect(keyRouteAccess('GET', '/api/nowhere', table)).toEqual({ kind: 'refused', detail: KEY_ROUTE_UNKNOWN });
    expect(keyRouteAccess('GET', '/api/trpc/canary.status', table)).toEqual({ kind: 'refused', detail: KEY_TRPC_REFUSED });
    // The floor holds even if an entry wrongly opened a management route to keys.
    const wrong = compileRoutes([doc('get', '/api/developer/keys', 'session-or-key'), doc('get', '/api/profile', 'session-or-key')]);
    expect(keyRouteAccess('GET', '/api/developer/keys', wrong)).toEqual({ kind: 'refused', detail: KEYS_CANNOT_MANAGE });
    expect(keyRouteAccess('GET', '/api/profile', wrong)).toEqual({ kind: 'refused', detail: KEYS_CANNOT_MANAGE });
    expect(isManagementPath('/api/keysmith')).toBe(false);
  });

  it('finds every ROUTE_DOCS entry as itself when its template is filled in', () => {
    const all = compileRoutes(ROUTE_DOCS);
    for (const route of ROUTE_DOCS) {
      const found = matchRoute(all, route.method, concrete(route.path));
      expect(found, `${route.method} ${route.path}`).toBe(route);
    }
  });

  it('keeps management routes closed to keys in ROUTE_DOCS itself', () => {
    for (const route of ROUTE_DOCS.filter((r) => isManagementPath(r.path))) {
      expect(route.auth, `${route.method} ${route.path}`).not.toBe('session-or-key');
    }
  });
});

describe('the scope matrix over every ROUTE_DOCS entry (real requests)', () => {
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  const keys = new Map<string, string>();

  beforeAll(async () => {
    owner = await signedInUser();
    // The biggest plan, so that the matrix never meets the monthly quota.
    await env.DB.prepare("UPDATE users SET plan = 'immortality' WHERE id = ?").bind(owner.id).run();
    for (const scopes of SUBSETS) {
      const res = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: subsetKey(scopes), scopes } });
      expect(res.status).toBe(201);
      keys.set(subsetKey(scopes), res.data.key);
    }
  });

  const used = async () => {
    await flushPendingUsage(createDb(env.DB));
    return (await env.DB.prepare('SELECT sum(count) AS count FROM api_usage WHERE user_id = ?').bind(owner.id).first<{ count: number | null }>())?.count ?? 0;
  };

  async function check(route: RouteDoc, scopes: readonly ApiScope[]) {
    const key = keys.get(subsetKey(scopes))!;
    const path = concrete(route.path);
    const method = route.method.toUpperCase();
    const before = await used();
    const res = await api(method, path, { token: key, json: method === 'GET' || method === 'DELETE' ? undefined : {} });
    const label = `${method} ${route.path} with [${scopes.join(', ')}] → ${res.status} ${res.text.slice(0, 200)}`;
    if (route.auth === 'none' && !isManagementPath(route.path)) {
      // A public route ignores the key, as it would answer without one: no principal, not metered.
      expect(res.status, label).not.toBe(403);
      expect(res.headers.get('x-ratelimit-limit'), label).toBeNull();
      expect(await used(), label).toBe(before);
      return;
    }
    // Authenticated in every case, and told its budget.
    expect(res.status, label).not.toBe(401);
    expect(res.headers.get('x-ratelimit-limit'), label).toBe('100000');
    if (keyMayCall(route, scopes)) {
      // The route's own handler answered (200, 404 for a random id, 422, 501…), never the policy.
      const policyRefusal = res.status === 403 && POLICY_DETAILS(route).includes(res.data?.detail);
      expect(policyRefusal, label).toBe(false);
      expect(await used(), label).toBe(before + 1);
    } else {
      expect(res.status, label).toBe(403);
      if (isManagementPath(route.path)) expect(res.data.detail, label).toBe(KEYS_CANNOT_MANAGE);
      else if (route.auth !== 'session-or-key') expect(res.data.detail, label).toBe(keySessionOnly(method, route.path));
      else expect(res.data.detail, label).toBe(keyMissingScope(route.scope!));
      // A refused call is not counted.
      expect(await used(), label).toBe(before);
    }
  }

  it('a key opens exactly the routes its scopes allow, nothing marked session, and public routes ignore it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SUBSETS), fc.constantFrom(...ROUTE_DOCS), async (scopes, route) => {
        await check(route, scopes);
      }),
      { numRuns: 250 },
    );
  });

  it('every entry, with every single scope and with all of them', async () => {
    for (const scopes of [...API_SCOPES.map((s) => [s]), [...API_SCOPES]]) {
      for (const route of ROUTE_DOCS) await check(route, scopes);
    }
  });

  it('each scope opens at least one documented route, and only session-or-key ones', () => {
    for (const scope of API_SCOPES.filter((s) => s !== 'create:vault')) {
      const opened = ROUTE_DOCS.filter((r) => r.scope === scope);
      expect(opened.length, scope).toBeGreaterThan(0);
      for (const r of opened) expect(r.auth).toBe('session-or-key');
    }
  });

  it('refuses tRPC to every key', async () => {
    for (const scopes of SUBSETS) {
      for (const [method, path] of [
        ['GET', '/api/trpc/canary.status'],
        ['GET', '/api/trpc/message.pending'],
        ['POST', '/api/trpc/developer.keys.create'],
      ] as const) {
        const res = await api(method, path, {
          token: keys.get(subsetKey(scopes)),
          json: method === 'POST' ? { name: 'x', scopes: ['read:canary'] } : undefined,
        });
        expect(res.status).toBe(403);
        expect(res.data.detail).toBe(KEY_TRPC_REFUSED);
      }
    }
  });
});

describe('routes outside ROUTE_DOCS', () => {
  it('still work for sessions exactly as before, and answer 403 to keys', async () => {
    const owner = await signedInUser();
    const created = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'x', scopes: [...API_SCOPES] } });
    const app = new Hono<AppEnv>();
    app.use('*', requestContext, authenticate);
    app.get('/api/undocumented', (c) => c.json({ via: c.get('principal')?.via ?? null }));
    app.onError(handleError);
    const call = (token?: string) => app.request('/api/undocumented', { headers: token ? { authorization: `Bearer ${token}` } : {} }, env);

    const session = await call(owner.token);
    expect(session.status).toBe(200);
    expect(await session.json()).toEqual({ via: 'session' });
    expect(await (await call()).json()).toEqual({ via: null });
    const viaKey = await call(created.data.key);
    expect(viaKey.status).toBe(403);
    expect(await viaKey.json()).toEqual({ detail: KEY_ROUTE_UNKNOWN });
  });
});
