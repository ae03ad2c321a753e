import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './context';

/**
 * Headers for API responses. The web app's HTML gets its own (with a CSP for scripts and styles)
 * from web/public/_headers, because static assets are served without running the Worker.
 */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Frame-Options', 'DENY');
  if (!c.res.headers.has('Content-Security-Policy')) {
    c.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  }
  if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
});
