import { Hono } from 'hono';
import { ZDeadmanSetupInput } from '../../contracts/canary';
import { jsonInput } from '../../lib/http';
import { requirePrincipal } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { getDeadman } from './deadman-view';
import { cancelDeadman, setupDeadman } from './setup-deadman';

/** SPEC section 7: /api/deadman/setup and /api/deadman/cancel (plus GET /api/deadman, its state). */
export const deadmanRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await getDeadman(c.get('services'), requirePrincipal(c.get('principal')).user.id)))
  .post('/setup', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    return c.json(await setupDeadman(c.get('services'), user.id, await jsonInput(c, ZDeadmanSetupInput)));
  })
  .post('/cancel', async (c) => c.json(await cancelDeadman(c.get('services'), requirePrincipal(c.get('principal')).user.id)));
