import { Hono } from 'hono';
import type { AppEnv } from '../middleware/context';
import { appOrigin } from '../lib/app-origin';

/**
 * /robots.txt and /sitemap.xml for search engines: the public pages may be indexed; the app, the API and
 * one-time links (claims, invitations, resets, check-in links) may not. Served by the Worker rather than as
 * static files because both must name the deployment's own origin (PUBLIC_ORIGIN) — a sitemap's URLs and the
 * robots file's Sitemap line are absolute.
 */
export const PUBLIC_PAGES = ['/', '/pricing', '/signup', '/login', '/support', '/press', '/status', '/terms', '/privacy'] as const;

const CLOSED = ['/app/', '/api/', '/claim/', '/guardian/accept/', '/contacts/accept/', '/reset-password', '/checkout', '/check-in/'];

export const crawlerFiles = new Hono<AppEnv>()
  .get('/robots.txt', (c) => {
    const lines = [
      '# Afterword: the public pages may be indexed; the app, the API and one-time links may not.',
      'User-agent: *',
      ...CLOSED.map((path) => `Disallow: ${path}`),
      'Allow: /',
      '',
      `Sitemap: ${appOrigin(c.env)}/sitemap.xml`,
      '',
    ];
    return c.text(lines.join('\n'), 200, { 'Cache-Control': 'public, max-age=3600' });
  })
  .get('/sitemap.xml', (c) => {
    const origin = appOrigin(c.env);
    const urls = PUBLIC_PAGES.map((path) => `  <url><loc>${origin}${path}</loc></url>`).join('\n');
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
    return c.body(xml, 200, { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' });
  });
