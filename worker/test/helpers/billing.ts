import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import { api } from './api';

/** The sandbox's local webhook signing secret (domains/billing/providers/index.ts): the tests sign as Stripe would. */
export const LOCAL_WEBHOOK_SECRET = 'whsec_afterword_local_sandbox';

/** Stripe's scheme, computed with node:crypto, independently of the Worker's WebCrypto code. */
export function stripeSignature(payload: string, secret = LOCAL_WEBHOOK_SECRET, t = Math.floor(Date.now() / 1000)) {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`;
}

export async function postEvent(event: object, opts: { secret?: string; t?: number; signature?: string } = {}) {
  const payload = JSON.stringify(event);
  return api('POST', '/api/billing/webhook', {
    body: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': opts.signature ?? stripeSignature(payload, opts.secret, opts.t) },
  });
}

/** Opens a sandbox checkout and plays `outcome` through the webhook, as the sandbox page does. */
export async function checkoutThroughSandbox(token: string, plan: string, cycle: string, outcome: 'pay' | 'decline' | 'cancel' = 'pay') {
  const session = await api('POST', '/api/billing/checkout', { token, json: { plan, cycle } });
  expect(session.status).toBe(201);
  const signed = await api('POST', `/api/billing/sandbox/${session.data.id}/${outcome}`, { token });
  expect(signed.status).toBe(200);
  const delivered = await api('POST', '/api/billing/webhook', {
    body: signed.data.payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signed.data.signature },
  });
  expect(delivered.status).toBe(200);
  return { sessionId: session.data.id as string, event: JSON.parse(signed.data.payload) as { id: string }, delivered: delivered.data };
}
