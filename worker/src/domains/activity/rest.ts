import { Hono } from 'hono';
import { requirePrincipal } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { listRecentActivity } from './list-activity';

/** GET /api/activity?limit=N: the dashboard's Recent Activity (not in SPEC's table; documented in docs/api.md). */
export const activityRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const limit = Number(c.req.query('limit') ?? 20);
  return c.json(await listRecentActivity(c.get('services'), requirePrincipal(c.get('principal')).user.id, Number.isFinite(limit) ? limit : 20));
});
