// The public pages arrive as HTML with their content (web/src/prerender.tsx, web/scripts/prerender.mjs):
// a phone paints the heading and the sign-in form before any script has run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { url } from '../support/http.mjs';

/** The markup inside #root, as served, before any script runs. */
async function prerendered(path) {
  const res = await fetch(url(path));
  assert.equal(res.status, 200, `GET ${path}`);
  assert.match(res.headers.get('content-type') ?? '', /text\/html/);
  const html = await res.text();
  const root = html.match(/<div id="root" data-prerendered="([^"]*)">([\s\S]*)<\/div>\s*<\/body>/);
  assert.ok(root, `${path} is served prerendered`);
  assert.equal(root[1], path);
  return { html, root: root[2] };
}

for (const [path, h1] of [
  ['/', 'Words for the people you love, kept safe until they are needed.'],
  ['/pricing', 'Pricing'],
  ['/login', 'Sign in'],
  ['/support', 'Support Afterword'],
  ['/press', 'Press'],
  ['/terms', 'Terms of Service'],
  ['/privacy', 'Privacy Policy'],
]) {
  test(`${path} is served with its heading, header and footer already in the HTML, and no inline script`, async () => {
    const { html, root } = await prerendered(path);
    assert.match(root, new RegExp(`<h1[^>]*>${h1}</h1>`));
    assert.match(root, /<header class="site-header">/);
    assert.match(root, /<footer class="site-footer">/);
    // The CSP allows no inline script (web/public/_headers): every <script> has a src.
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) assert.match(tag, /\bsrc=/, `${path}: ${tag}`);
  });
}

test('/login is served with its sign-in form, its submit button disabled until the app has hydrated', async () => {
  const { root } = await prerendered('/login');
  assert.match(root, /<form [^>]*aria-label="Sign in"[^>]*method="post"/);
  assert.match(root, /<input [^>]*type="email"[^>]*name="email"/);
  assert.match(root, /<input [^>]*type="password"[^>]*name="password"/);
  assert.match(root, /<button type="submit"[^>]*disabled=""[^>]*>Sign in<\/button>/);
  assert.match(await (await fetch(url('/login'))).text(), /<title>Sign in · Afterword<\/title>/);
});

test('other addresses get the empty app shell, never a prerendered page', async () => {
  for (const path of ['/app', '/app/messages', '/signup', '/claim/abc']) {
    const res = await fetch(url(path));
    assert.equal(res.status, 200, path);
    const html = await res.text();
    assert.match(html, /<div id="root"><\/div>/, `${path} is the shell`);
  }
});
