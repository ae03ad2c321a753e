// Security headers on API and HTML responses, SPA fallback, JSON 404 for unknown API paths.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { api, url } from '../support/http.mjs';

function assertSecurityHeaders(headers, where) {
  assert.equal(headers.get('x-content-type-options'), 'nosniff', `${where}: X-Content-Type-Options`);
  assert.ok(headers.get('referrer-policy'), `${where}: Referrer-Policy missing`);
  const csp = headers.get('content-security-policy');
  assert.ok(csp, `${where}: Content-Security-Policy missing`);
  assert.match(csp, /frame-ancestors 'none'/, `${where}: CSP lacks frame-ancestors 'none': ${csp}`);
}

test('API responses carry the security headers (success, 404 and 401 alike)', async () => {
  for (const [method, path, status] of [
    ['GET', '/api/health', 200],
    ['GET', '/api/no-such-route', 404],
    ['GET', '/api/auth/me', 401],
  ]) {
    const res = await api(method, path);
    assert.equal(res.status, status, `${method} ${path}`);
    assertSecurityHeaders(res.headers, `${method} ${path}`);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  }
});

test('GET /api/health answers {status:"ok"}', async () => {
  const res = await api('GET', '/api/health');
  assert.equal(res.status, 200);
  assert.deepEqual(res.json, { status: 'ok' });
});

for (const path of ['/', '/login']) {
  test(`the HTML of ${path} carries nosniff, Referrer-Policy and a CSP with frame-ancestors 'none'`, async () => {
    const res = await fetch(url(path));
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await res.text(), /<div id="?root"?|<script/i);
    assertSecurityHeaders(res.headers, `GET ${path}`);
    // From web/public/_headers; browsers honour it only over https (production).
    assert.match(res.headers.get('strict-transport-security') ?? '', /max-age=31536000/);
  });
}

test('SPA fallback: a deep /app route returns the app shell index.html', async () => {
  // Not `/`: that is the prerendered landing page (worker/src/site/landing.ts); /app is the shell too.
  const [deep, index] = await Promise.all([fetch(url('/app/messages')), fetch(url('/app'))]);
  assert.equal(deep.status, 200);
  assert.match(deep.headers.get('content-type') ?? '', /text\/html/);
  const [a, b] = await Promise.all([deep.text(), index.text()]);
  assert.equal(a, b, '/app/messages should serve the same index.html as /app');
  assert.match(a, /<div id="root"><\/div>/, 'the empty shell');
  assert.match(a, /<script[^>]+type="module"/);
});

test('an unknown /api path is a JSON 404 with a detail, not the SPA', async () => {
  for (const method of ['GET', 'POST', 'DELETE']) {
    const res = await api(method, '/api/definitely/not/here');
    assert.equal(res.status, 404, `${method}`);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    assert.equal(typeof res.json?.detail, 'string');
    assert.ok(!/<html/i.test(res.text));
  }
});

test('/robots.txt is a real robots file (not the app’s HTML): public pages open, the app, the API and one-time links closed', async () => {
  const res = await api('GET', '/robots.txt');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
  assert.ok(!/<html/i.test(res.text));
  for (const rule of ['User-agent: *', 'Disallow: /app/', 'Disallow: /api/', 'Disallow: /claim/', 'Disallow: /check-in/', 'Allow: /'])
    assert.ok(res.text.includes(rule), rule);
  assert.ok(res.text.includes(`Sitemap: ${process.env.AFTERWORD_ORIGIN}/sitemap.xml`), 'names the sitemap by its absolute URL');
});

test('/sitemap.xml lists the public pages by absolute URL, and nothing of the app', async () => {
  const res = await api('GET', '/sitemap.xml');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/xml/);
  const locs = [...res.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  assert.ok(res.text.includes('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'));
  assert.ok(locs.includes(`${process.env.AFTERWORD_ORIGIN}/`) && locs.includes(`${process.env.AFTERWORD_ORIGIN}/pricing`), locs.join(' '));
  assert.deepEqual(
    locs.filter((u) => /\/(app|api|claim|check-in)\b/.test(new URL(u).pathname)),
    [],
  );
  // Each listed page is served.
  for (const url of locs) assert.equal((await fetch(url)).status, 200, url);
});
