import { z } from 'zod';
import { defineOperation } from '../../api/operation';
import {
  ZBillingView,
  ZCheckoutQuery,
  ZCheckoutQuote,
  ZCheckoutSession,
  ZPortalSession,
  ZSandboxOutcomeParams,
  ZSandboxPortalParams,
  ZSandboxSession,
  ZSandboxSessionParams,
  ZSignedEvent,
  ZQuoteQuery,
} from '../../contracts/billing';
import { createCheckout, quoteCheckout } from './checkout';
import { openBillingPortal } from './portal';
import { playSandboxPortal } from './sandbox-portal';
import { sandboxEnabled } from './providers';
import { readBilling } from './read-billing';
import { playSandboxOutcome, readSandboxSession, sessionNotFound } from './sandbox-events';

/**
 * /api/billing (docs/decisions/billing.md): the plan and meters, a quote and a checkout
 * session, and the local sandbox that plays the provider. POST /api/billing/webhook is a plain route
 * (rest.ts): it must read the raw body to check the signature.
 */
const tags = ['Billing'];
const session = { kind: 'session' } as const;
const invalid = { description: 'A field is missing or invalid (`detail` lists each)' };
const noSession = { description: 'No such checkout session (or not yours)' };

export const billingOperations = [
  defineOperation({
    method: 'get',
    path: '/api/billing',
    trpc: 'get',
    access: session,
    input: {},
    output: ZBillingView,
    docs: {
      operationId: 'getBilling',
      summary: 'Plan, cycle and meters',
      description:
        'The plan whose limits apply now (Free while a payment has failed), what was bought (`purchased_plan`, `cycle`, `status`), the renewal or end date, and every meter: canaries, storage bytes (one meter over attachments, audio, vault files, voice samples and capsule media), API calls this month, voice minutes per session.',
      tags,
    },
    run: ({ services, principal }) => readBilling(services, principal.user),
  }),
  defineOperation({
    method: 'get',
    path: '/api/billing/quote',
    trpc: 'quote',
    access: session,
    input: { query: ZQuoteQuery },
    output: ZCheckoutQuote,
    docs: {
      operationId: 'quoteCheckout',
      summary: 'What a checkout will charge and change',
      description:
        'The price in cents for `plan` and `cycle` (after the 40 % family continuation discount when it applies), whether it renews, and how each limit changes.',
      tags,
      responses: { 422: invalid },
    },
    run: ({ services, principal }, q) => quoteCheckout(services, principal.user, q),
  }),
  defineOperation({
    method: 'post',
    path: '/api/billing/checkout',
    trpc: 'checkout',
    access: session,
    input: { body: ZCheckoutQuery },
    output: ZCheckoutSession,
    status: 201,
    docs: {
      operationId: 'createCheckout',
      summary: 'Open a checkout session',
      description:
        'Opens a session with the payment provider (Stripe Checkout in production: subscription mode for monthly and annual, payment mode for lifetime and memorial closeout; the sandbox locally) and answers the `url` to send the browser to. The plan changes only when the provider’s signed event arrives at POST /api/billing/webhook.',
      tags,
      responses: { 201: { description: 'The session and where to pay' }, 422: invalid, 501: { description: 'Payments are not configured on this server' } },
    },
    run: ({ services, principal }, q) => createCheckout(services, principal.user, q),
  }),
  defineOperation({
    method: 'get',
    path: '/api/billing/sandbox/{id}',
    trpc: 'sandboxSession',
    access: session,
    input: { params: ZSandboxSessionParams },
    notFound: sessionNotFound,
    output: ZSandboxSession,
    exists: sandboxEnabled,
    docs: {
      operationId: 'readSandboxSession',
      summary: 'A sandbox checkout session (local only)',
      tags,
      responses: { 404: noSession },
    },
    run: ({ services, principal }, { id }) => readSandboxSession(services, principal.user, id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/billing/sandbox/{id}/{outcome}',
    trpc: 'sandboxPlay',
    access: session,
    input: { params: ZSandboxOutcomeParams },
    notFound: sessionNotFound,
    output: ZSignedEvent,
    exists: sandboxEnabled,
    docs: {
      operationId: 'playSandboxCheckout',
      summary: 'Pay, decline or cancel a sandbox checkout (local only)',
      description:
        '`outcome`: pay, decline or cancel. Answers the Stripe-shaped event the provider would send for the outcome, signed as Stripe signs (`signature` is the `Stripe-Signature` header). Post `payload` to POST /api/billing/webhook with it: the plan changes there, as in production.',
      tags,
      responses: { 404: noSession, 409: { description: 'The session is already finished' } },
    },
    run: ({ services, principal }, { id, outcome }) => playSandboxOutcome(services, principal.user, id, outcome),
  }),
  defineOperation({
    method: 'post',
    path: '/api/billing/portal',
    trpc: 'portal',
    access: session,
    input: {},
    output: ZPortalSession,
    docs: {
      operationId: 'openBillingPortal',
      summary: 'Manage my subscription',
      description:
        "Where the owner cancels (the plan runs to the end of the paid period, then the account moves to Free; nothing is deleted), takes a cancellation back, switches between monthly and annual, or changes the card: Stripe's customer portal in production, the sandbox's page locally. Open `url`; changes arrive as the provider's signed events.",
      tags,
      responses: { 200: { description: 'The portal' }, 409: { description: 'No subscription to manage' } },
    },
    run: ({ services, principal }) => openBillingPortal(services, principal.user),
  }),
  defineOperation({
    method: 'post',
    path: '/api/billing/sandbox-portal/{action}',
    trpc: 'sandboxPortal',
    access: session,
    input: { params: ZSandboxPortalParams },
    output: ZSignedEvent,
    exists: sandboxEnabled,
    docs: {
      operationId: 'playSandboxPortal',
      summary: 'Cancel, resume, switch cycle or change card in the sandbox portal (local only)',
      description:
        '`action`: cancel (at the end of the paid period), resume, switch_cycle (monthly ↔ annual) or update_card. Answers the customer.subscription.updated event Stripe would send, signed; post `payload` to POST /api/billing/webhook with `signature` as `Stripe-Signature`.',
      tags,
      responses: { 409: { description: 'No subscription to manage' } },
    },
    run: ({ services, principal }, { action }) => playSandboxPortal(services, principal.user, action),
  }),
];

export const ZWebhookAnswer = z.object({ received: z.literal(true), applied: z.boolean(), duplicate: z.boolean(), ignored: z.boolean() });
