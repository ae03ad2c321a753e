import { Hono } from 'hono';
import { requirePrincipal } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { listScheduledDeletions } from './list-deletions';

/** SPEC section 7: /api/legal/* (deletions now; consents and export arrive with data rights). */
export const legalRoutes = new Hono<AppEnv>().get('/deletions', async (c) =>
  c.json(await listScheduledDeletions(c.get('services'), requirePrincipal(c.get('principal')).user.id)),
);
