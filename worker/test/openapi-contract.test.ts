import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { buildOpenApiDocument } from '../src/openapi/document';
import { DOCS_CSP, SCALAR_BUNDLE_PATH } from '../src/openapi/rest';
import { API_SCOPES, type RouteDoc } from '../src/api/route-doc';
import { ROUTE_DOCS } from '../src/openapi/routes';
import { api } from './helpers/api';
import { ZPhoneE164 } from '../src/contracts/profile';
import { ZAttachmentUploadFields } from '../src/contracts/attachments';
import { EU_MEMBER_STATES } from '../src/contracts/regions';
import { toBase64, toBase64Url } from '../src/lib/encoding';

/*
 * ROUTE_DOCS is both the OpenAPI document and the API-key policy, so it must be exactly the set of
 * routes the Worker serves: a route missing from it would be undocumented (and refused to keys), an
 * entry with no route would document something that answers 404.
 */

/** Hono's `/api/message/:id` → OpenAPI's `/api/message/{id}`; no trailing slash. */
const normalise = (path: string) => path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, '{$1}').replace(/\/+$/, '') || '/';
const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

function servedRoutes() {
  const explicit = new Set<string>();
  /** Paths with an `.all()` handler (not middleware): any method not served explicitly lands there. */
  const catchAll = new Set<string>();
  for (const r of createApp().routes) {
    const path = normalise(r.path);
    // The tRPC mount is the web app's internal endpoint, described in the document's introduction.
    if (path === '/api/trpc' || path.startsWith('/api/trpc/')) continue;
    if (r.method === 'ALL') {
      // app.use() entries (middleware) are registered as ALL on a wildcard path.
      if (path.endsWith('*')) continue;
      catchAll.add(path);
      continue;
    }
    explicit.add(key(r.method, path));
  }
  return { explicit, catchAll };
}

const pathParams = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

describe('ROUTE_DOCS and the routes createApp() serves', () => {
  const { explicit, catchAll } = servedRoutes();
  const documented = new Set(ROUTE_DOCS.map((d) => key(d.method, d.path)));

  it('serves something under /api (the test sees the real routes)', () => {
    expect(explicit.size).toBeGreaterThan(40);
    expect(explicit).toContain('GET /api/canary/status');
    expect(explicit).toContain('GET /api/openapi.json');
  });

  it('documents every route the Worker serves under /api (robots.txt and sitemap.xml are for crawlers, not the API)', () => {
    expect(explicit).toContain('GET /robots.txt');
    const missing = [...explicit].filter((r) => !documented.has(r) && r.split(' ')[1]!.startsWith('/api'));
    expect(missing, 'served but not in ROUTE_DOCS (add them to worker/src/openapi/routes/)').toEqual([]);
  });

  it('serves every documented route', () => {
    const stale = ROUTE_DOCS.filter((d) => !explicit.has(key(d.method, d.path)) && !catchAll.has(d.path)).map((d) => key(d.method, d.path));
    expect(stale, 'in ROUTE_DOCS but not served').toEqual([]);
  });

  it('documents what a catch-all handler answers (e.g. GET /api/ping/{token} → 405)', () => {
    for (const path of catchAll) {
      const viaCatchAll = ROUTE_DOCS.filter((d) => d.path === path && !explicit.has(key(d.method, d.path)));
      expect(viaCatchAll.length, `${path} has an .all() handler: document at least one method it answers`).toBeGreaterThan(0);
    }
  });

  it('documents each method and path once, with a unique operationId', () => {
    const seen = new Map<string, number>();
    for (const d of ROUTE_DOCS) seen.set(key(d.method, d.path), (seen.get(key(d.method, d.path)) ?? 0) + 1);
    expect([...seen].filter(([, n]) => n > 1)).toEqual([]);
    const ids = ROUTE_DOCS.map((d) => d.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
  });

  it('gives every session-or-key entry a scope, and a scope only to those', () => {
    for (const d of ROUTE_DOCS) {
      const where = key(d.method, d.path);
      if (d.auth === 'session-or-key') expect(API_SCOPES, `${where} needs a scope`).toContain(d.scope);
      else expect(d.scope, `${where}: a scope only means something on a session-or-key route`).toBeUndefined();
      if (d.authOptional) expect(d.auth, `${where}: authOptional is for session routes`).toBe('session');
    }
  });

  it('opens to API keys exactly the routes of the read scopes (read:canary, read:messages), and the sandbox event', () => {
    const open = (scope: string) =>
      ROUTE_DOCS.filter((d) => d.auth === 'session-or-key' && d.scope === scope)
        .map((d) => key(d.method, d.path))
        .sort();
    // The sandbox route also refuses live keys and sessions itself (domains/webhooks/simulate-missed-checkins.ts).
    expect(open('read:canary')).toEqual([
      'GET /api/canary/list',
      'GET /api/canary/status',
      'GET /api/canary/{id}/warnings',
      // A rehearsal's report (what the engine would do, what each TEST copy reached); running one is a session's alone.
      'GET /api/rehearsal',
      'GET /api/rehearsal/{id}',
      'POST /api/sandbox/missed-checkins',
    ]);
    expect(open('read:messages')).toEqual(
      [
        'GET /api/message/pending',
        'GET /api/message/list',
        'GET /api/message/sent',
        'GET /api/message/inbox',
        'GET /api/message/unread-count',
        'GET /api/message/{id}',
        'GET /api/message/{id}/attachments',
        'GET /api/notify/logs/{id}',
      ].sort(),
    );
  });

  it('names path parameters as the path does', () => {
    for (const d of ROUTE_DOCS) {
      expect(d.path, 'OpenAPI-style path with the /api prefix').toMatch(/^\/api\/[^:]*$/);
      if (!d.request?.params) continue;
      const shape = Object.keys((d.request.params as unknown as { shape: Record<string, unknown> }).shape ?? {});
      expect(shape.sort(), key(d.method, d.path)).toEqual(pathParams(d.path).sort());
    }
  });
});

describe('the OpenAPI document', () => {
  const doc = buildOpenApiDocument() as any;
  const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
  const routeOf = (method: string, path: string) => ROUTE_DOCS.find((d) => d.method === method && d.path === path) as RouteDoc;

  it('is OpenAPI 3.1 with one operation per ROUTE_DOCS entry', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(operations).toHaveLength(ROUTE_DOCS.length);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.bearerAuth.description).toMatch(/afw_live_/);
    expect(doc.components.securitySchemes.bearerAuth.description).toMatch(/afw_test_/);
    expect(doc.info.description).toMatch(/\/api\/trpc/);
  });

  it('has no $defs (they would resolve against the document root) and no $schema lines', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('$defs');
    expect(text).not.toContain('"$schema"');
  });

  it('marks security and x-scope as ROUTE_DOCS says', () => {
    for (const { path, method, op } of operations) {
      const route = routeOf(method, path);
      const where = key(method, path);
      if (route.auth === 'none') expect(op.security, where).toEqual([]);
      else if (route.authOptional) expect(op.security, where).toEqual([{}, { bearerAuth: [] }]);
      else expect(op.security, where).toEqual([{ bearerAuth: [] }]);
      expect(op['x-scope'], where).toBe(route.scope);
      if (route.auth !== 'none') {
        expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(['401', '403']));
      }
      if (route.auth === 'session-or-key') expect(op.responses['429'].headers['Retry-After'], where).toBeDefined();
    }
  });

  it('describes the error statuses of a JSON body with the {detail} schema', () => {
    for (const { path, method, op } of operations) {
      const where = key(method, path);
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        if (Number(status) < 400) continue;
        expect(response.content?.['application/json']?.schema, `${where} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
      if (op.requestBody) {
        expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(['413', '415', '422']));
      }
      if (pathParams(path).length) {
        // Except a route that only refuses the method (GET /api/ping/{token}: 405 whatever the token).
        if (Object.keys(op.responses).join() !== '405') expect(op.responses['404'], where).toBeDefined();
        expect(
          op.parameters
            .filter((p: any) => p.in === 'path')
            .map((p: any) => p.name)
            .sort(),
          where,
        ).toEqual(pathParams(path).sort());
      }
    }
  });

  it('takes request bodies from the zod contracts as the client sends them', () => {
    const register = doc.paths['/api/auth/register'].post.requestBody.content['application/json'].schema;
    expect(register.required).toEqual(['email', 'password', 'data_policy_region']);
    expect(register.properties.data_policy_region.enum).toEqual(['US-HIPAA', 'EU-GDPR', 'INTL-General']);
    // A field with a default is optional for the client.
    const create = doc.paths['/api/canary/create'].post.requestBody;
    expect(create.required).toBe(false);
    expect(create.content['application/json'].schema.properties.interval_seconds).toMatchObject({ default: 86400, minimum: 60 });
    const upload = doc.paths['/api/upload/encrypted-file'].post.requestBody.content['multipart/form-data'].schema;
    expect(upload.required).toEqual(expect.arrayContaining(['file', 'message_id', 'iv']));
    const status = doc.paths['/api/canary/status'].get.responses['200'].content['application/json'].schema;
    expect(status.properties.missed).toEqual({ type: 'boolean' });
  });

  it('declares the formats the server enforces, as the server enforces them', () => {
    const body = (path: string, method = 'post', type = 'application/json') => doc.paths[path][method].requestBody.content[type].schema;
    const register = body('/api/auth/register');
    expect(register.properties.email).toMatchObject({ format: 'email', maxLength: 254 });
    const eu = register.allOf.find((rule: any) => rule.if.properties.data_policy_region.const === 'EU-GDPR');
    expect(eu.then.properties.legal_jurisdiction.enum).toEqual([...EU_MEMBER_STATES]);
    expect(body('/api/developer/webhooks').properties.url).toMatchObject({ format: 'uri' });
    expect(body('/api/profile', 'patch').properties.time_zone).toMatchObject({ format: 'iana-time-zone' });
    const memorialAvatar = body('/api/memorial/create').properties.avatar_url.anyOf.find((s: any) => s.type === 'string');
    expect(new RegExp(memorialAvatar.pattern).test('https://example.com/a.png')).toBe(true);
    expect(new RegExp(memorialAvatar.pattern).test('http://example.com/a.png')).toBe(false);
    expect(body('/api/ai/train-profile').properties.qa.items.properties.question_id.enum).toContain('earliest_memory');

    // The phone's pattern accepts exactly what the server accepts.
    const phone = new RegExp(body('/api/profile/phone').properties.phone.pattern);
    for (const typed of [
      '+14155550100',
      ' +1 (415) 555-0100 ',
      '+44.20.7946.0958',
      '+1234567',
      '+123456789012345',
      '0155550100',
      '+0155550100',
      '+123456',
      '+1234567890123456',
      '+1 415 555 01a0',
    ])
      expect(phone.test(typed), typed).toBe(ZPhoneE164.safeParse(typed).success);

    // The IV's pattern: base64 of exactly 12 bytes, either alphabet, padding optional.
    const ivPattern = new RegExp(body('/api/upload/encrypted-file', 'post', 'multipart/form-data').properties.iv.pattern);
    const ivField = ZAttachmentUploadFields.shape.iv;
    for (const bytes of [12, 11, 13]) {
      const raw = crypto.getRandomValues(new Uint8Array(bytes));
      for (const text of [toBase64(raw), toBase64Url(raw)]) expect(ivPattern.test(text), text).toBe(ivField.safeParse(text).success);
    }
  });
});

describe('GET /api/openapi.json and GET /api/docs', () => {
  it('serves the document with this origin as its server', async () => {
    const res = await api('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.data.openapi).toBe('3.1.0');
    expect(res.data.servers).toEqual([{ url: 'http://afterword.test', description: 'This server' }]);
    expect(Object.keys(res.data.paths)).toContain('/api/canary/status');
    const again = await api('GET', '/api/openapi.json');
    expect(again.text).toBe(res.text);
  });

  it('serves the reference page: the local Scalar bundle, no inline script, its own CSP', async () => {
    const res = await api('GET', '/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.text).toContain(`<script src="${SCALAR_BUNDLE_PATH}"></script>`);
    expect(res.text).toContain('data-url="/api/openapi.json"');
    expect(res.text).not.toMatch(/https?:\/\//);
    // script-src 'self' only: every <script> is either external (same origin) or empty.
    for (const [, attrs, body] of res.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
      expect(/\ssrc="\//.test(attrs!) || body!.trim() === '', attrs).toBe(true);
    }
  });
});
