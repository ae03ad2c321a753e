import { Hono } from 'hono';
import { ZApiKeyId, ZCreateApiKeyInput } from '../../contracts/developer';
import { AppError } from '../../lib/errors';
import { jsonInput } from '../../lib/http';
import { requirePrincipal, requireSession } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { DEATH_REPORT_KEY_ONLY, reportDeath } from './death-verification';
import { createApiKey, keyNotFound, listApiKeys, revokeApiKey } from './manage-keys';

/** /api/developer/keys: a signed-in person manages their keys; an API key gets 403 (policy and here). */
export const developerKeyRoutes = new Hono<AppEnv>()
  .post('/', async (c) => {
    const { user } = requireSession(c.get('principal'));
    return c.json(await createApiKey(c.get('services'), user.id, await jsonInput(c, ZCreateApiKeyInput)), 201);
  })
  .get('/', async (c) => c.json(await listApiKeys(c.get('services'), requireSession(c.get('principal')).user.id)))
  .delete('/:id', async (c) => {
    const { user } = requireSession(c.get('principal'));
    // A malformed id cannot be anyone's key: 404 like any id that is not yours.
    const parsed = ZApiKeyId.safeParse({ id: c.req.param('id') });
    if (!parsed.success) throw keyNotFound();
    return c.json(await revokeApiKey(c.get('services'), user.id, parsed.data.id));
  });

/** /api/death-verification: the key-only death report (a 501 stub until the guardian capability). */
export const deathVerificationRoutes = new Hono<AppEnv>().post('/report', async (c) => {
  const principal = requirePrincipal(c.get('principal'));
  if (principal.via !== 'key') throw new AppError('FORBIDDEN', DEATH_REPORT_KEY_ONLY);
  return reportDeath(c.get('services'), principal);
});
