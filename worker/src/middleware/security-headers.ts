import { createMiddleware } from 'hono/factory';
import { isProduction } from '../env';
import type { AppEnv } from './context';

/** One year, subdomains too: production is https only (web/public/_headers sends the same for HTML). */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Headers for API responses. The web app's HTML gets its own (with a CSP for scripts and styles)
 * from web/public/_headers, because static assets are served without running the Worker.
 */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Frame-Options', 'DENY');
  if (isProduction(c.env)) c.header('Strict-Transport-Security', HSTS);
  if (!c.res.headers.has('Content-Security-Policy')) {
    c.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  }
  if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
});
