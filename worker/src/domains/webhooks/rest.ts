import { Hono } from 'hono';
import { ZCreateWebhookInput, ZSimulateMissedCheckinsInput, ZWebhookAttemptsQuery, ZWebhookId } from '../../contracts/webhooks';
import { AppError } from '../../lib/errors';
import { jsonInput } from '../../lib/http';
import { parseOrThrow } from '../../lib/validation';
import { requirePrincipal, requireSession } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { simulateMissedCheckins } from './simulate-missed-checkins';
import { createWebhook, listWebhookAttempts, listWebhooks, removeWebhook, sendTestEvent, webhookSample } from './webhooks';

/** A malformed id cannot be anyone's webhook: 404 like any other id that is not yours. */
function webhookId(raw: string): string {
  const parsed = ZWebhookId.safeParse({ id: raw });
  if (!parsed.success) throw new AppError('NOT_FOUND', 'Webhook not found');
  return parsed.data.id;
}

/**
 * /api/developer/webhooks (SPEC section 7) — mounted at that path. Session only: the API-key policy reads
 * `auth: 'session'` from worker/src/openapi/routes/webhooks.ts and refuses keys before the route runs;
 * `requireSession` refuses them again here (403).
 */
export const webhookRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await listWebhooks(c.get('services'), requireSession(c.get('principal')).user.id)))
  .post('/', async (c) => {
    const principal = requireSession(c.get('principal'));
    return c.json(await createWebhook(c.get('services'), principal, await jsonInput(c, ZCreateWebhookInput)), 201);
  })
  .get('/sample', async (c) => c.json(webhookSample(c.get('services'), requireSession(c.get('principal')).user.id)))
  .delete('/:id', async (c) => {
    const { user } = requireSession(c.get('principal'));
    return c.json(await removeWebhook(c.get('services'), user.id, webhookId(c.req.param('id'))));
  })
  .post('/:id/test', async (c) => {
    const { user } = requireSession(c.get('principal'));
    return c.json(await sendTestEvent(c.get('services'), user.id, webhookId(c.req.param('id'))));
  })
  .get('/:id/attempts', async (c) => {
    const { user } = requireSession(c.get('principal'));
    const id = webhookId(c.req.param('id'));
    const { limit } = parseOrThrow(ZWebhookAttemptsQuery, c.req.query(), 'query');
    return c.json(await listWebhookAttempts(c.get('services'), user.id, id, limit));
  });

/** /api/sandbox: events a sandbox API key can make to test an integration (read:canary; 403 otherwise). */
export const sandboxRoutes = new Hono<AppEnv>().post('/missed-checkins', async (c) => {
  const principal = requirePrincipal(c.get('principal'));
  return c.json(await simulateMissedCheckins(c.get('services'), principal, await jsonInput(c, ZSimulateMissedCheckinsInput)), 202);
});
