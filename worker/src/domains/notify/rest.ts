import { Hono } from 'hono';
import { ZMessageId } from '../../contracts/messages';
import { ZNotifyPreferences, ZPushEndpoint, ZPushSubscription } from '../../contracts/notify';
import { AppError } from '../../lib/errors';
import { jsonInput } from '../../lib/http';
import { requirePrincipal } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { getDeliveryLog } from '../messages/delivery-log';
import { getNotifyPreferences, saveNotifyPreferences } from './preferences';
import { listPushSubscriptionViews, subscribePush, unsubscribePush } from './push-subscriptions';
import { vapidPublicKey } from './vapid-keys';

/** SPEC section 7: /api/notify/preferences and /api/notify/logs/{id}, plus the Web Push routes. */
export const notifyRoutes = new Hono<AppEnv>()
  .get('/preferences', async (c) => c.json(await getNotifyPreferences(c.get('services'), requirePrincipal(c.get('principal')).user.id)))
  .post('/preferences', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    return c.json(await saveNotifyPreferences(c.get('services'), user.id, await jsonInput(c, ZNotifyPreferences)));
  })
  .get('/logs/:id', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    // A malformed id cannot be anyone's message: 404 like any other id that is not yours.
    const parsed = ZMessageId.safeParse({ id: c.req.param('id') });
    if (!parsed.success) throw new AppError('NOT_FOUND', 'Message not found');
    return c.json(await getDeliveryLog(c.get('services'), user.id, parsed.data.id));
  })
  .get('/push/key', async (c) => {
    requirePrincipal(c.get('principal'));
    return c.json(await vapidPublicKey(c.get('services')));
  })
  .get('/push/subscriptions', async (c) =>
    c.json(await listPushSubscriptionViews(c.get('services'), requirePrincipal(c.get('principal')).user.id)),
  )
  .post('/push/subscriptions', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    return c.json(await subscribePush(c.get('services'), user.id, await jsonInput(c, ZPushSubscription)), 201);
  })
  .delete('/push/subscriptions', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    const { endpoint } = await jsonInput(c, ZPushEndpoint);
    return c.json(await unsubscribePush(c.get('services'), user.id, endpoint));
  });
