// The build's server entry (web/scripts/prerender.mjs): renders the public pages that are the same for
// every visitor to HTML, so a phone paints them before any script arrives; src/main.tsx hydrates them.
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { pageTitleText } from './lib/document-title';
import { takePrerenderedTitle } from './lib/use-page-title';
import { createAppRouter } from './router';

/**
 * Each page and the file it is written to in web/dist. The landing page cannot be dist/index.html: that
 * file is the app's shell, served for every other address (wrangler.toml `not_found_handling`); the
 * Worker serves landing.html at / (worker/src/site/landing.ts). Pages that depend on the visitor (/signup
 * keeps a draft, /status asks the API, one-time links) stay client-rendered.
 */
export const PRERENDERED_PAGES = [
  { path: '/', file: 'landing.html' },
  { path: '/pricing', file: 'pricing.html' },
  { path: '/login', file: 'login.html' },
  { path: '/support', file: 'support.html' },
  { path: '/press', file: 'press.html' },
  { path: '/terms', file: 'terms.html' },
  { path: '/privacy', file: 'privacy.html' },
] as const;

/** The markup of the app at `path`, as the browser's first render produces it (src/main.tsx), and its title. */
export async function renderPage(path: string): Promise<{ html: string; title: string }> {
  const router = createAppRouter({ history: createMemoryHistory({ initialEntries: [path] }), scrollRestoration: false });
  await router.load();
  const html = renderToString(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  return { html, title: pageTitleText(takePrerenderedTitle()) };
}
