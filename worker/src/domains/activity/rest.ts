import { Hono } from 'hono';
import { ZActivityQuery } from '../../contracts/canary';
import { parseOrThrow } from '../../lib/validation';
import { requirePrincipal } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { listRecentActivity } from './list-activity';

/** GET /api/activity?limit=N: the dashboard's Recent Activity (not in SPEC's table; documented in docs/api.md). */
export const activityRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const { user } = requirePrincipal(c.get('principal'));
  const { limit } = parseOrThrow(ZActivityQuery, { limit: c.req.query('limit') }, 'query');
  return c.json(await listRecentActivity(c.get('services'), user.id, limit));
});
