import { Hono } from 'hono';
import { ZOutboxQuery } from '../../contracts/notify';
import { requirePrincipal } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { handleNotFound } from '../../middleware/errors';
import { parseOrThrow } from '../../lib/validation';
import { operatorViewEnabled, outboxEnabled, readEveryOutbox, readOutbox } from './outbox-access';

/** /api/outbox: the caller's local mailbox, standing in for every channel (docs/decisions/local-outbox.md). */
export const outboxRoutes = new Hono<AppEnv>()
  // In every environment: the web app shows its Outbox link only when this says so.
  .get('/status', (c) => c.json({ enabled: outboxEnabled(c.get('services').env) }))
  .get('/all', async (c) => {
    const services = c.get('services');
    // Checked before the session: without the setting (and always in production) the route does not exist.
    if (!operatorViewEnabled(services.env)) return handleNotFound(c);
    requirePrincipal(c.get('principal'));
    const { limit } = parseOrThrow(ZOutboxQuery, { limit: c.req.query('limit') }, 'query');
    return c.json(await readEveryOutbox(services, limit));
  })
  .get('/', async (c) => {
    const services = c.get('services');
    // Checked before the session: in production the route does not exist, for anyone.
    if (!outboxEnabled(services.env)) return handleNotFound(c);
    const principal = requirePrincipal(c.get('principal'));
    const { limit } = parseOrThrow(ZOutboxQuery, { limit: c.req.query('limit') }, 'query');
    return c.json(await readOutbox(services, principal.user.id, limit));
  });
