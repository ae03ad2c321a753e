// Step three of `pnpm build` (web/package.json): after the browser build (web/dist) and the server build
// of src/prerender.tsx (web/.prerender), writes each public page's HTML into web/dist: the shell
// (dist/index.html, with its hashed script and style tags) with the page's markup inside #root and its
// title. No inline script is added: the CSP allows none (web/public/_headers).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const dist = here('../dist/');
const serverBuild = here('../.prerender/');

const { PRERENDERED_PAGES, renderPage } = await import(pathToFileURL(`${serverBuild}prerender.js`).href);
const shell = readFileSync(`${dist}index.html`, 'utf8');
if (!shell.includes('<div id="root"></div>') || !shell.includes('<title>Afterword</title>')) {
  throw new Error('web/index.html no longer has <div id="root"></div> and <title>Afterword</title>: update web/scripts/prerender.mjs');
}

// The stylesheet is inlined: on a phone's first visit a linked one costs a round trip before the first
// paint, and the CSP allows inline styles (style-src 'unsafe-inline', web/public/_headers). The shell
// (dist/index.html) keeps the link, so the app's other pages share the cached file.
const inlineStyles = (html) =>
  html.replace(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g, (_tag, file) => `<style>${readFileSync(`${dist}${file}`, 'utf8')}</style>`);

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

for (const page of PRERENDERED_PAGES) {
  const { html, title } = await renderPage(page.path);
  const out = inlineStyles(shell)
    .replace('<title>Afterword</title>', () => `<title>${escapeHtml(title)}</title>`)
    .replace('<div id="root"></div>', () => `<div id="root" data-prerendered="${page.path}">${html}</div>`);
  writeFileSync(`${dist}${page.file}`, out);
  console.log(`prerendered ${page.path} → web/dist/${page.file} (${(out.length / 1024).toFixed(1)} KB)`);
}
rmSync(serverBuild, { recursive: true, force: true });
