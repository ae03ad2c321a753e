// The OpenAPI document and the API reference page, against the running Worker: the document validates
// as OpenAPI 3.1 (@readme/openapi-parser), documents the routes the product calls, and /api/docs renders
// Scalar from this origin only (offline), under its own CSP.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, test } from 'node:test';
import { compileErrors, validate } from '@readme/openapi-parser';
import { newContext, sharedBrowser } from '../support/browser.mjs';
import { api, origin, url } from '../support/http.mjs';

const BUNDLE = '/vendor/scalar/standalone.js';

async function fetchDocument() {
  const res = await api('GET', '/api/openapi.json');
  assert.equal(res.status, 200, res.text.slice(0, 200));
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  return res.json;
}

test('GET /api/openapi.json is a valid OpenAPI 3.1 document', async () => {
  const doc = await fetchDocument();
  assert.equal(doc.openapi, '3.1.0');
  const result = await validate(structuredClone(doc));
  assert.ok(result.valid, result.valid ? '' : compileErrors(result));
  assert.deepEqual(result.warnings, [], compileErrors({ ...result, errors: [] }));
});

test('the document points at this server and explains both kinds of bearer token', async () => {
  const doc = await fetchDocument();
  assert.deepEqual(
    doc.servers.map((s) => s.url),
    [origin()],
  );
  const scheme = doc.components.securitySchemes.bearerAuth;
  assert.equal(scheme.type, 'http');
  assert.equal(scheme.scheme, 'bearer');
  assert.match(scheme.description, /afw_live_/);
  assert.match(scheme.description, /afw_test_/);
  assert.match(doc.info.description, /\/api\/trpc/, 'the tRPC endpoint is mentioned as internal');
});

test('the REST calls of docs/api.md built so far are documented, with their auth and scopes', async () => {
  const { paths } = await fetchDocument();
  const op = (method, path) => {
    const found = paths[path]?.[method];
    assert.ok(found, `${method.toUpperCase()} ${path} is documented`);
    return found;
  };
  for (const [method, path] of [
    ['post', '/api/auth/login'],
    ['post', '/api/auth/register'],
    ['post', '/api/canary/create'],
    ['post', '/api/canary/checkin'],
    ['delete', '/api/canary/{id}'],
    ['post', '/api/message/create'],
    ['post', '/api/messages/deliver/{id}'],
    ['post', '/api/upload/encrypted-file'],
    ['get', '/api/download/decrypted-file/{id}'],
    ['post', '/api/deadman/setup'],
    ['post', '/api/deadman/cancel'],
    ['get', '/api/legal/deletions'],
    ['get', '/api/notify/preferences'],
    ['post', '/api/notify/preferences'],
  ]) {
    op(method, path);
  }
  assert.deepEqual(op('post', '/api/auth/login').security, []);
  assert.deepEqual(op('post', '/api/canary/create').security, [{ bearerAuth: [] }]);
  assert.equal(op('get', '/api/canary/status')['x-scope'], 'read:canary');
  assert.equal(op('get', '/api/canary/list')['x-scope'], 'read:canary');
  for (const path of ['/api/message/pending', '/api/message/{id}', '/api/notify/logs/{id}']) assert.equal(op('get', path)['x-scope'], 'read:messages');
  assert.equal(op('post', '/api/message/create')['x-scope'], undefined, 'creating a message is for sessions only');
  // Request bodies come from the zod contracts.
  const login = op('post', '/api/auth/login').requestBody.content['application/json'].schema;
  assert.deepEqual(login.required, ['email', 'password']);
  const error = op('get', '/api/canary/status').responses['401'].content['application/json'].schema;
  assert.deepEqual(error, { $ref: '#/components/schemas/Error' });
});

test('GET /api/docs is the reference page, loading the Scalar bundle from this origin', async () => {
  const res = await fetch(url('/api/docs'));
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/html/);
  const html = await res.text();
  assert.ok(html.includes(`<script src="${BUNDLE}"></script>`), html);
  assert.ok(html.includes('data-url="/api/openapi.json"'));
  assert.doesNotMatch(html, /https?:\/\//, 'no third-party (CDN) URL in the page');
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /connect-src 'self'(;|$)/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
});

test('the Scalar bundle is served by the app itself as JavaScript', async () => {
  const res = await fetch(url(BUNDLE));
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /javascript/);
  const js = await res.text();
  assert.ok(js.length > 100_000, `a real bundle (${js.length} bytes)`);
  assert.ok(js.includes('createApiReference'), 'the Scalar standalone bundle');
  assert.doesNotMatch(js.slice(0, 200), /<!doctype html/i, 'not the SPA fallback');
});

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const getBrowser = sharedBrowser({ after });

test('the reference renders in Chromium with no CSP violation and no request to another origin', {
  skip: !existsSync(chromium) && `no Chromium at ${chromium}`,
}, async () => {
  const { context, errors } = await newContext(await getBrowser());
  try {
    const page = await context.newPage();
    const foreign = [];
    page.on('request', (req) => {
      const u = new URL(req.url());
      if (!['data:', 'blob:'].includes(u.protocol) && u.origin !== origin()) foreign.push(req.url());
    });
    await page.goto('/api/docs');
    // The title and an operation of the first tag show up once Scalar has fetched and rendered the document.
    await page.getByRole('heading', { name: 'Afterword API' }).first().waitFor({ timeout: 30_000 });
    await page.getByText('Sign in with email and password').first().waitFor();
    assert.equal(await page.getByText('Generate MCP').count(), 0, "Scalar's hosted extras are off");
    assert.deepEqual(foreign, [], 'requests left the origin');
    const cspErrors = errors.filter((e) => /Content Security Policy|Refused to/i.test(e.text) && !/'unsafe-eval'/.test(e.text));
    assert.deepEqual(cspErrors, []);
  } finally {
    await context.close();
  }
});
