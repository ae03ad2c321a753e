import { Hono } from 'hono';
import { ZKeysOfUser } from '../../contracts/auth';
import { ZKeyBundle } from '../../contracts/e2ee';
import { jsonInput } from '../../lib/http';
import { requirePrincipal } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { AppError } from '../../lib/errors';
import { createKeys, getOwnKeys, getPublicKey, NO_PUBLIC_KEY } from './key-bundles';

/** /api/keys: E2EE key bundles (docs/api.md "End-to-end encryption keys"). */
export const keyRoutes = new Hono<AppEnv>()
  .get('/me', async (c) => c.json(await getOwnKeys(c.get('services'), requirePrincipal(c.get('principal')).user.id)))
  .put('/me', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    return c.json(await createKeys(c.get('services'), user.id, await jsonInput(c, ZKeyBundle)), 201);
  })
  .get('/:userId', async (c) => {
    requirePrincipal(c.get('principal'));
    const parsed = ZKeysOfUser.safeParse({ user_id: c.req.param('userId') });
    // A malformed id cannot be anyone's: 404 like an unknown one.
    if (!parsed.success) throw new AppError('NOT_FOUND', NO_PUBLIC_KEY);
    return c.json(await getPublicKey(c.get('services'), parsed.data.user_id));
  });
