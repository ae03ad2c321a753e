import { Hono } from 'hono';
import { ZOutboxQuery } from '../../contracts/notify';
import { requirePrincipal } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { handleNotFound } from '../../middleware/errors';
import { parseOrThrow } from '../../lib/validation';
import { outboxEnabled, readOutbox } from './outbox-access';

/** /api/outbox: the local stand-in for every channel (DESIGN section 4). */
export const outboxRoutes = new Hono<AppEnv>()
  // In every environment: the web app shows its Outbox link only when this says so.
  .get('/status', (c) => c.json({ enabled: outboxEnabled(c.get('services').env) }))
  .get('/', async (c) => {
    const services = c.get('services');
    // Checked before the session: in production the route does not exist, for anyone.
    if (!outboxEnabled(services.env)) return handleNotFound(c);
    requirePrincipal(c.get('principal'));
    const { limit } = parseOrThrow(ZOutboxQuery, { limit: c.req.query('limit') }, 'query');
    return c.json(await readOutbox(services, limit));
  });
