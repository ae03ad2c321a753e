import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MAX_JSON_BYTES, payloadTooLarge } from '../../lib/json-body';
import type { AppEnv } from '../../middleware/context';
import { receiveWebhook } from './apply-event';

/**
 * POST /api/billing/webhook (documented in openapi/routes/billing.ts): a plain route, because the
 * signature is over the raw bytes of the body — a parsed and re-serialised body would not verify.
 */
export const billingWebhookRoutes = new Hono<AppEnv>().post(
  '/webhook',
  bodyLimit({
    maxSize: MAX_JSON_BYTES,
    onError: () => {
      throw payloadTooLarge();
    },
  }),
  async (c) => c.json(await receiveWebhook(c.get('services'), await c.req.text(), c.req.header('stripe-signature'))),
);
