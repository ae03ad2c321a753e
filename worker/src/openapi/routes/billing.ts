import { ZWebhookAnswer } from '../../domains/billing/operations';
import type { RouteDoc } from '../../api/route-doc';

/** POST /api/billing/webhook (domains/billing/rest.ts): a plain route, it reads the raw body to verify it. */
export const routes: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/billing/webhook',
    operationId: 'billingWebhook',
    summary: 'Payment provider events',
    description:
      "Stripe's events, verified by the `Stripe-Signature` header (`t=…,v1=…`: HMAC-SHA256 of `<t>.<raw body>` with the endpoint's signing secret, within 300 seconds) and applied once per event id: checkout.session.completed and .async_payment_succeeded (the plan changes once paid), checkout.session.async_payment_failed and .expired (the session ends, nothing changes), customer.subscription.updated and .deleted, invoice.payment_failed (limits fall to Free, nothing is deleted, the owner is told). Other events are acknowledged and ignored.",
    tags: ['Billing'],
    auth: 'none',
    request: {
      headers: [
        { name: 'Stripe-Signature', required: true, description: "`t=<unix seconds>,v1=<hex HMAC-SHA256 of '<t>.<raw body>'>`, as Stripe signs its events" },
      ],
    },
    responses: {
      200: { description: 'Received (`applied`, `duplicate` or `ignored`)', schema: ZWebhookAnswer },
      400: { description: 'Missing, malformed, wrong or stale signature, or not an event' },
      413: { description: 'Over 1 MiB' },
    },
  },
];
