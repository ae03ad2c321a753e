import { Hono } from 'hono';
import { ZCanaryId, ZCheckInInput, ZCreateCanaryInput } from '../../contracts/canary';
import { AppError } from '../../lib/errors';
import { jsonInput } from '../../lib/http';
import { requirePrincipal } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { checkInAll, checkInWithToken } from './check-in';
import { createCanary } from './create-canary';
import { deleteCanary } from './delete-canary';
import { canaryStatus, listCanaries } from './list-canaries';

/** SPEC section 7: /api/canary/*. */
export const canaryRoutes = new Hono<AppEnv>()
  .post('/create', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    return c.json(await createCanary(c.get('services'), user, await jsonInput(c, ZCreateCanaryInput)), 201);
  })
  .get('/list', async (c) => c.json(await listCanaries(c.get('services'), requirePrincipal(c.get('principal')).user.id)))
  .get('/status', async (c) => c.json(await canaryStatus(c.get('services'), requirePrincipal(c.get('principal')).user.id)))
  .post('/checkin', async (c) => {
    const { token } = await jsonInput(c, ZCheckInInput);
    if (token) return c.json(await checkInWithToken(c.get('services'), token, 'token'));
    const principal = requirePrincipal(c.get('principal'));
    return c.json(await checkInAll(c.get('services'), principal.user.id, 'web'));
  })
  .delete('/:id', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    // A malformed id cannot be anyone's canary: 404 like any other id that is not yours.
    const parsed = ZCanaryId.safeParse({ id: c.req.param('id') });
    if (!parsed.success) throw new AppError('NOT_FOUND', 'Canary not found');
    return c.json(await deleteCanary(c.get('services'), user.id, parsed.data.id));
  });

/**
 * /api/ping/{token}: check-ins for cron jobs (`curl -X POST`). A GET never checks in: mail scanners
 * and link previewers fetch URLs by themselves (DESIGN section 2).
 */
export const pingRoutes = new Hono<AppEnv>()
  .post('/:token', async (c) => c.json(await checkInWithToken(c.get('services'), c.req.param('token'), 'ping')))
  .all('/:token', (c) => {
    c.header('Allow', 'POST');
    throw new AppError('METHOD_NOT_ALLOWED', 'A check-in must be a POST (curl -X POST …/api/ping/{token}); a GET never checks in.', { Allow: 'POST' });
  });

