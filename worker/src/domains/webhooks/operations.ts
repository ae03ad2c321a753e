import { z } from 'zod';
import { ZIdParam } from '../../contracts/ids';
import { defineOperation } from '../../api/operation';
import {
  MAX_WEBHOOKS_PER_USER,
  ZCreateWebhookInput,
  ZMissedCheckinsPayload,
  ZSimulatedMissedCheckins,
  ZSimulateMissedCheckinsInput,
  ZWebhookAttempt,
  ZWebhookAttemptsQuery,
  ZWebhookCreated,
  ZWebhookTestResult,
  ZWebhookView,
} from '../../contracts/webhooks';
import { simulateMissedCheckins } from './simulate-missed-checkins';
import { createWebhook, listWebhookAttempts, listWebhooks, removeWebhook, sendTestEvent, webhookNotFound, webhookSample } from './webhooks';

/**
 * /api/developer/webhooks (docs/api.md; tRPC `webhooks.*`): session only. The API-key policy reads
 * `auth: 'session'` from these declarations and refuses keys before the route runs; `access` refuses
 * them again (403). Then /api/sandbox, the events a sandbox API key can make.
 */
const tags = ['Webhooks'];
const session = { kind: 'session' } as const;
const keyRefused = 'An API key called: keys cannot manage keys, webhooks or the account';
const notYours = { description: 'Webhook not found (or not yours)' };
const notSignedIn = { description: 'Not signed in' };

const signing =
  'Each event is a POST (Standard Webhooks) with the JSON body, `content-type: application/json` and the headers `webhook-id` ' +
  '(`msg_…`, the same on every retry of one event), `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature` ' +
  '(`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the `whsec_` secret). ' +
  'Verify with any Standard Webhooks library (e.g. npm `standardwebhooks`: `new Webhook(secret).verify(rawBody, headers)`).';

export const webhooksOperations = [
  defineOperation({
    method: 'post',
    path: '/api/developer/webhooks',
    trpc: 'create',
    access: session,
    input: { body: ZCreateWebhookInput },
    output: ZWebhookCreated,
    status: 201,
    docs: {
      operationId: 'createWebhook',
      limits: [{ what: 'webhook endpoints', max: MAX_WEBHOOKS_PER_USER, per: 'account', refusal: 409 }],
      summary: 'Create a webhook endpoint',
      description:
        'Subscribes `url` to `event` (`missed_checkins`: one of your canaries missed a check-in). `hmac_secret` is optional: without it one is ' +
        'generated (`whsec_` + base64 of 32 random bytes); a supplied one must be `whsec_` + base64 of 24–64 bytes. The secret is in this answer ' +
        'only (lists show `whsec_…` and its last 4 characters); it is stored encrypted. With `retry`, failed deliveries (5xx, 429, timeouts of 10 s, ' +
        'connection errors) are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; without it each event is attempted once. An endpoint ' +
        'answering 410 is disabled and you are told. In production the URL must be https on port 443 with a public host name (no IP addresses, ' +
        'no localhost / .local / .internal / metadata hosts, no user:password); redirects are never followed. ' +
        `At most ${MAX_WEBHOOKS_PER_USER} endpoints per account. An optional \`idempotency_key\` (8–100 characters, one per endpoint): sent again ` +
        'with the same key and input after a lost answer, the call answers with the endpoint its first try wrote and its whole secret instead of a ' +
        `second endpoint that would get every event twice; with another input, 409. ${signing}`,
      tags,
      responses: {
        201: { description: 'The new endpoint with its whole secret, shown once (and again to a retry with its idempotency_key)' },
        401: notSignedIn,
        403: { description: keyRefused },
        409: { description: `The account already has ${MAX_WEBHOOKS_PER_USER} endpoints, or the idempotency_key was used for another endpoint` },
        422: { description: 'A bad or refused URL (the SSRF rules), an unknown event, a malformed hmac_secret or a missing retry' },
      },
    },
    run: ({ services, principal }, input) => createWebhook(services, principal, input),
  }),
  defineOperation({
    method: 'get',
    path: '/api/developer/webhooks',
    trpc: 'list',
    access: session,
    input: {},
    output: z.array(ZWebhookView),
    docs: {
      operationId: 'listWebhooks',
      summary: 'List webhook endpoints',
      description: 'The caller’s endpoints, newest first, with the secret masked (`whsec_…abcd`) and the status (`active`, or `disabled` with the reason).',
      tags,
      responses: { 200: { description: 'Endpoints' }, 401: notSignedIn, 403: { description: keyRefused } },
    },
    run: ({ services, principal }) => listWebhooks(services, principal.user.id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/developer/webhooks/sample',
    trpc: 'sample',
    access: session,
    input: {},
    output: ZMissedCheckinsPayload,
    docs: {
      operationId: 'webhookSamplePayload',
      summary: 'A sample webhook payload',
      description: `What a \`missed_checkins\` body looks like (with your user id). ${signing}`,
      tags,
      responses: { 200: { description: 'The sample body' }, 401: notSignedIn, 403: { description: keyRefused } },
    },
    run: ({ services, principal }) => webhookSample(services, principal.user.id),
  }),
  defineOperation({
    method: 'delete',
    path: '/api/developer/webhooks/{id}',
    trpc: 'remove',
    access: session,
    input: { params: ZIdParam },
    output: z.object({ id: z.string(), deleted: z.literal(true) }),
    notFound: webhookNotFound,
    docs: {
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook endpoint',
      description: 'The endpoint, its pending retries and its attempt log are removed at once.',
      tags,
      responses: { 200: { description: 'Deleted' }, 401: notSignedIn, 403: { description: keyRefused }, 404: notYours },
    },
    run: ({ services, principal }, { id }) => removeWebhook(services, principal.user.id, id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/developer/webhooks/{id}/test',
    trpc: 'test',
    access: session,
    input: { params: ZIdParam },
    output: ZWebhookTestResult,
    notFound: webhookNotFound,
    docs: {
      operationId: 'sendWebhookTestEvent',
      summary: 'Send a test event',
      description:
        'One signed POST of the sample payload (with `data.test: true`), sent now and never retried, logged like any attempt. It is sent to a ' +
        'disabled endpoint too, and a 2xx turns that endpoint back on.',
      tags,
      responses: { 200: { description: 'The attempt (delivered or not)' }, 401: notSignedIn, 403: { description: keyRefused }, 404: notYours },
    },
    run: ({ services, principal }, { id }) => sendTestEvent(services, principal.user.id, id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/developer/webhooks/{id}/attempts',
    trpc: 'attempts',
    access: session,
    input: { params: ZIdParam, query: ZWebhookAttemptsQuery },
    output: z.array(ZWebhookAttempt),
    notFound: webhookNotFound,
    docs: {
      operationId: 'listWebhookAttempts',
      summary: 'Delivery attempts of an endpoint',
      description:
        'Newest first (default 100, at most 200): time, event, `message_id` (the `webhook-id` header), attempt number, HTTP status (null when there ' +
        'was no answer), duration in ms and the error.',
      tags,
      responses: {
        200: { description: 'Attempts' },
        401: notSignedIn,
        403: { description: keyRefused },
        404: notYours,
        422: { description: 'A bad limit' },
      },
    },
    run: ({ services, principal }, { id, limit }) => listWebhookAttempts(services, principal.user.id, id, limit),
  }),
  // /api/sandbox: events a sandbox API key can make to test an integration (read:canary; 403 otherwise).
  defineOperation({
    method: 'post',
    path: '/api/sandbox/missed-checkins',
    trpc: false,
    access: { kind: 'session-or-key', scope: 'read:canary' },
    input: { body: ZSimulateMissedCheckinsInput },
    output: ZSimulatedMissedCheckins,
    status: 202,
    docs: {
      operationId: 'simulateMissedCheckins',
      summary: 'Simulate a missed check-in (sandbox keys)',
      description:
        'For testing an integration: a **sandbox** API key (`afw_test_…`, scope `read:canary`) makes the `missed_checkins` event your canary ' +
        '(`canary_id`, or by default the one `GET /api/canary/status` reports) would send for its current cycle — its real id, deadline and ' +
        'miss count (at least 1) — with `data.sandbox: true` and an `event_id` starting `sandbox:`. It goes to every active endpoint subscribed ' +
        'to `missed_checkins`, signed, retried and logged like a real event. Nothing else happens: the canary is not marked missed, no message ' +
        `is released, nobody is notified. The body may be empty. ${signing}`,
      tags,
      responses: {
        202: { description: 'The simulated event and how many endpoints it was queued for' },
        401: { description: 'No credentials, or an invalid or revoked key' },
        403: { description: 'Not a sandbox API key (a live key or a session), or a key without read:canary' },
        404: { description: 'No such canary of yours, or no active canary when canary_id is omitted' },
        422: { description: 'canary_id is not a UUID, or an unknown field' },
        429: { description: 'Monthly API call limit reached' },
      },
    },
    run: ({ services, principal }, input) => simulateMissedCheckins(services, principal, input),
  }),
] as const;
