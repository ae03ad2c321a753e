import { Hono } from 'hono';
import type { AppEnv } from '../middleware/context';

/**
 * GET / : the landing page prerendered at build time (web/src/prerender.tsx writes web/dist/landing.html).
 * It cannot be web/dist/index.html, which is the app's empty shell that static assets serve for every
 * other address (wrangler.toml `not_found_handling`, always /index.html); so wrangler.toml runs the
 * Worker first for "/" alone and it answers with that asset, headers (web/public/_headers) included.
 */
export const landingPage = new Hono<AppEnv>().get('/', (c) => c.env.ASSETS.fetch(new URL('/landing', c.req.url)));
