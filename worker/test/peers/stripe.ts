import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

/**
 * A Stripe peer: a node:http server speaking the documented endpoints the billing adapter uses,
 *   POST /v1/checkout/sessions   form-encoded with bracketed keys (mode, line_items[0][price_data][…],
 *                                discounts[0][coupon], metadata[…], success_url, cancel_url …)
 *   POST /v1/coupons             (id, percent_off, duration, name)
 *   DELETE /v1/subscriptions/{id} (cancels at once)
 *   POST /v1/billing_portal/sessions (customer, return_url): the customer portal's URL
 * authenticated by `Authorization: Bearer sk_test_…`, answering Stripe's objects (`{id:"cs_test_…",
 * object:"checkout.session", url, amount_total, …}`) or Stripe's error JSON `{error:{type, code, message}}`
 * (401 for a bad key, 400 `parameter_missing`, 400 `resource_already_exists` for a coupon id taken).
 *
 * Tests run in parallel, so state is per secret key: a test uses its own key and reads only its own requests.
 * Control endpoints (JSON):
 *   GET  /__requests?key=sk_…          what that key sent (path and form)
 *   POST /__complete?key=sk_…          {session, secret, outcome?}: the event Stripe would send for the
 *                                      session (checkout.session.completed, paid, with a subscription for
 *                                      subscription mode), signed with `secret` as Stripe signs:
 *                                      answers {payload, signature}
 */
export interface StripePeerInfo {
  baseUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stripePeer: StripePeerInfo;
  }
}

export interface RecordedStripeRequest {
  method: string;
  path: string;
  authorization: string;
  contentType: string;
  form: Record<string, string>;
}

interface Account {
  requests: RecordedStripeRequest[];
  coupons: Map<string, { id: string; percent_off: number; duration: string }>;
  sessions: Map<string, Record<string, unknown>>;
}

const accounts = new Map<string, Account>();
const accountFor = (key: string) => {
  const a: Account = accounts.get(key) ?? { requests: [], coupons: new Map(), sessions: new Map() };
  accounts.set(key, a);
  return a;
};
const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const stripeError = (res: ServerResponse, status: number, type: string, code: string | undefined, message: string, param?: string) =>
  json(res, status, { error: { type, code, message, param } });

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://peer');
  if (url.pathname === '/__requests') return json(res, 200, accountFor(url.searchParams.get('key') ?? '').requests);
  if (url.pathname === '/__complete') {
    const account = accountFor(url.searchParams.get('key') ?? '');
    const { session, secret } = JSON.parse(await readBody(req)) as { session: string; secret: string };
    const s = account.sessions.get(session);
    if (!s) return json(res, 404, { error: 'no such session' });
    const created = Math.floor(Date.now() / 1000);
    const payload = JSON.stringify({
      id: id('evt'),
      object: 'event',
      api_version: '2025-06-30.basil',
      created,
      livemode: false,
      type: 'checkout.session.completed',
      data: { object: { ...s, status: 'complete', payment_status: 'paid', customer: id('cus'), subscription: s.mode === 'subscription' ? id('sub') : null } },
    });
    const signature = `t=${created},v1=${createHmac('sha256', secret).update(`${created}.${payload}`).digest('hex')}`;
    return json(res, 200, { payload, signature });
  }

  const auth = req.headers.authorization ?? '';
  const key = /^Bearer (sk_(test|live)_\w+)$/.exec(auth)?.[1];
  if (!key) return stripeError(res, 401, 'invalid_request_error', undefined, 'Invalid API Key provided');
  const account = accountFor(key);
  const raw = await readBody(req);
  const form = Object.fromEntries(new URLSearchParams(raw));
  account.requests.push({ method: req.method ?? '', path: url.pathname, authorization: auth, contentType: req.headers['content-type'] ?? '', form });

  const cancel = /^\/v1\/subscriptions\/(sub_\w+)$/.exec(url.pathname);
  if (req.method === 'DELETE' && cancel) return json(res, 200, { id: cancel[1], object: 'subscription', status: 'canceled' });

  if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return stripeError(
      res,
      400,
      'invalid_request_error',
      undefined,
      'Invalid request (check that your POST content type is application/x-www-form-urlencoded).',
    );
  }

  if (req.method === 'POST' && url.pathname === '/v1/coupons') {
    const couponId = form.id ?? id('coupon');
    if (account.coupons.has(couponId)) return stripeError(res, 400, 'invalid_request_error', 'resource_already_exists', 'Coupon already exists.', 'id');
    if (!form.percent_off && !form.amount_off)
      return stripeError(res, 400, 'invalid_request_error', 'parameter_missing', 'Missing required param: percent_off.', 'percent_off');
    const coupon = {
      id: couponId,
      object: 'coupon',
      percent_off: Number(form.percent_off),
      duration: form.duration ?? 'once',
      name: form.name ?? null,
      valid: true,
    };
    account.coupons.set(couponId, coupon);
    return json(res, 200, coupon);
  }

  if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
    for (const required of ['mode', 'success_url']) {
      if (!form[required]) return stripeError(res, 400, 'invalid_request_error', 'parameter_missing', `Missing required param: ${required}.`, required);
    }
    const subscription = form.mode === 'subscription';
    if (subscription && !form['line_items[0][price_data][recurring][interval]']) {
      return stripeError(
        res,
        400,
        'invalid_request_error',
        undefined,
        'You must specify a recurring price in subscription mode.',
        'line_items[0][price_data][recurring]',
      );
    }
    if (!subscription && form['line_items[0][price_data][recurring][interval]']) {
      return stripeError(res, 400, 'invalid_request_error', undefined, 'You specified payment mode but passed a recurring price.', 'line_items[0][price_data]');
    }
    const couponId = form['discounts[0][coupon]'];
    const coupon = couponId ? account.coupons.get(couponId) : undefined;
    if (couponId && !coupon) return stripeError(res, 400, 'invalid_request_error', 'resource_missing', `No such coupon: '${couponId}'`, 'discounts[0][coupon]');
    const subtotal = Number(form['line_items[0][price_data][unit_amount]']) * Number(form['line_items[0][quantity]'] ?? 1);
    const total = coupon ? Math.round(subtotal * (1 - coupon.percent_off / 100)) : subtotal;
    const metadata = Object.fromEntries(
      Object.entries(form).flatMap(([k, v]) => (/^metadata\[(\w+)\]$/.exec(k) ? [[/^metadata\[(\w+)\]$/.exec(k)![1]!, v]] : [])),
    );
    const sessionId = id('cs_test');
    const session = {
      id: sessionId,
      object: 'checkout.session',
      mode: form.mode,
      status: 'open',
      payment_status: 'unpaid',
      client_reference_id: form.client_reference_id ?? null,
      customer_email: form.customer_email ?? null,
      currency: form['line_items[0][price_data][currency]'],
      amount_subtotal: subtotal,
      amount_total: total,
      metadata,
      success_url: form.success_url,
      cancel_url: form.cancel_url ?? null,
      url: `https://checkout.stripe.com/c/pay/${sessionId}`,
    };
    account.sessions.set(sessionId, session);
    return json(res, 200, session);
  }
  // docs.stripe.com/api/customer_portal/sessions/create: `customer` is required; `return_url` is where the portal's
  // "Return" link goes (the dashboard's default when left out).
  if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
    if (!form.customer) return stripeError(res, 400, 'invalid_request_error', 'parameter_missing', 'Missing required param: customer.', 'customer');
    if (!/^cus_\w+$/.test(form.customer))
      return stripeError(res, 400, 'invalid_request_error', 'resource_missing', `No such customer: '${form.customer}'`, 'customer');
    const portalId = id('bps');
    return json(res, 200, {
      id: portalId,
      object: 'billing_portal.session',
      customer: form.customer,
      livemode: false,
      return_url: form.return_url ?? null,
      url: `https://billing.stripe.com/p/session/test_${portalId}`,
    });
  }
  return stripeError(res, 404, 'invalid_request_error', undefined, `Unrecognized request URL (${req.method}: ${url.pathname}).`);
}

export async function startStripePeer(project: TestProject) {
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) json(res, 500, { error: String(err) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  project.provide('stripePeer', { baseUrl: `http://127.0.0.1:${port}` });
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}
