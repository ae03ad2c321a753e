import { Hono } from 'hono';
import { AppError } from '../../lib/errors';
import type { AppEnv } from '../../middleware/context';

/**
 * /api/ping/{token} with any method but POST (the POST check-in is an operation: operations.ts): a GET
 * never checks in, since mail scanners and link previewers fetch URLs by themselves
 * (docs/server-rules.md "Canaries and check-ins"). A catch-all, so app.ts mounts it after the operations.
 */
export const pingRoutes = new Hono<AppEnv>().all('/:token', (c) => {
  c.header('Allow', 'POST');
  throw new AppError('METHOD_NOT_ALLOWED', 'A check-in must be a POST (curl -X POST …/api/ping/{token}); a GET never checks in.', { Allow: 'POST' });
});
