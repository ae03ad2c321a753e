import { z } from 'zod';
import {
  MAX_WEBHOOKS_PER_USER,
  ZCreateWebhookInput,
  ZMissedCheckinsPayload,
  ZSimulatedMissedCheckins,
  ZSimulateMissedCheckinsInput,
  ZWebhookAttempt,
  ZWebhookAttemptsQuery,
  ZWebhookCreated,
  ZWebhookId,
  ZWebhookTestResult,
  ZWebhookView,
} from '../../contracts/webhooks';
import type { RouteDoc } from '../route-doc';

const tags = ['Webhooks'];
const keyRefused = 'An API key called: keys cannot manage keys, webhooks or the account';
const notYours = 'Webhook not found (or not yours)';

const signing =
  'Each event is a POST (Standard Webhooks) with the JSON body, `content-type: application/json` and the headers `webhook-id` ' +
  '(`msg_…`, the same on every retry of one event), `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature` ' +
  '(`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the `whsec_` secret). ' +
  'Verify with any Standard Webhooks library (e.g. npm `standardwebhooks`: `new Webhook(secret).verify(rawBody, headers)`).';

/** /api/developer/webhooks (domains/webhooks/rest.ts): session only. */
export const routes: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/developer/webhooks',
    operationId: 'createWebhook',
    summary: 'Create a webhook endpoint',
    description:
      'Subscribes `url` to `event` (`missed_checkins`: one of your canaries missed a check-in). `hmac_secret` is optional: without it one is ' +
      'generated (`whsec_` + base64 of 32 random bytes); a supplied one must be `whsec_` + base64 of 24–64 bytes. The secret is in this answer ' +
      'only (lists show `whsec_…` and its last 4 characters); it is stored encrypted. With `retry`, failed deliveries (5xx, 429, timeouts of 10 s, ' +
      'connection errors) are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; without it each event is attempted once. An endpoint ' +
      'answering 410 is disabled and you are told. In production the URL must be https on port 443 with a public host name (no IP addresses, ' +
      'no localhost / .local / .internal / metadata hosts, no user:password); redirects are never followed. ' +
      `At most ${MAX_WEBHOOKS_PER_USER} endpoints per account. ${signing}`,
    tags,
    auth: 'session',
    request: { body: ZCreateWebhookInput },
    responses: {
      201: { description: 'The new endpoint with its whole secret, shown once', schema: ZWebhookCreated },
      401: { description: 'Not signed in' },
      403: { description: keyRefused },
      409: { description: `The account already has ${MAX_WEBHOOKS_PER_USER} endpoints` },
      422: { description: 'A bad or refused URL (the SSRF rules), an unknown event, a malformed hmac_secret or a missing retry' },
    },
  },
  {
    method: 'get',
    path: '/api/developer/webhooks',
    operationId: 'listWebhooks',
    summary: 'List webhook endpoints',
    description: 'The caller’s endpoints, newest first, with the secret masked (`whsec_…abcd`) and the status (`active`, or `disabled` with the reason).',
    tags,
    auth: 'session',
    responses: { 200: { description: 'Endpoints', schema: z.array(ZWebhookView) }, 401: { description: 'Not signed in' }, 403: { description: keyRefused } },
  },
  {
    method: 'get',
    path: '/api/developer/webhooks/sample',
    operationId: 'webhookSamplePayload',
    summary: 'A sample webhook payload',
    description: `What a \`missed_checkins\` body looks like (with your user id). ${signing}`,
    tags,
    auth: 'session',
    responses: { 200: { description: 'The sample body', schema: ZMissedCheckinsPayload }, 401: { description: 'Not signed in' }, 403: { description: keyRefused } },
  },
  {
    method: 'delete',
    path: '/api/developer/webhooks/{id}',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook endpoint',
    description: 'The endpoint, its pending retries and its attempt log are removed at once.',
    tags,
    auth: 'session',
    request: { params: ZWebhookId },
    responses: {
      200: { description: 'Deleted', schema: z.object({ id: z.string(), deleted: z.literal(true) }) },
      401: { description: 'Not signed in' },
      403: { description: keyRefused },
      404: { description: notYours },
    },
  },
  {
    method: 'post',
    path: '/api/developer/webhooks/{id}/test',
    operationId: 'sendWebhookTestEvent',
    summary: 'Send a test event',
    description:
      'One signed POST of the sample payload (with `data.test: true`), sent now and never retried, logged like any attempt. It is sent to a ' +
      'disabled endpoint too, and a 2xx turns that endpoint back on.',
    tags,
    auth: 'session',
    request: { params: ZWebhookId },
    responses: {
      200: { description: 'The attempt (delivered or not)', schema: ZWebhookTestResult },
      401: { description: 'Not signed in' },
      403: { description: keyRefused },
      404: { description: notYours },
    },
  },
  {
    method: 'get',
    path: '/api/developer/webhooks/{id}/attempts',
    operationId: 'listWebhookAttempts',
    summary: 'Delivery attempts of an endpoint',
    description:
      'Newest first (default 100, at most 200): time, event, `message_id` (the `webhook-id` header), attempt number, HTTP status (null when there ' +
      'was no answer), duration in ms and the error.',
    tags,
    auth: 'session',
    request: { params: ZWebhookId, query: ZWebhookAttemptsQuery },
    responses: {
      200: { description: 'Attempts', schema: z.array(ZWebhookAttempt) },
      401: { description: 'Not signed in' },
      403: { description: keyRefused },
      404: { description: notYours },
      422: { description: 'A bad limit' },
    },
  },
  {
    method: 'post',
    path: '/api/sandbox/missed-checkins',
    operationId: 'simulateMissedCheckins',
    summary: 'Simulate a missed check-in (sandbox keys)',
    description:
      'For testing an integration: a **sandbox** API key (`afw_test_…`, scope `read:canary`) makes the `missed_checkins` event your canary ' +
      '(`canary_id`, or by default the one `GET /api/canary/status` reports) would send for its current cycle — its real id, deadline and ' +
      'miss count (at least 1) — with `data.sandbox: true` and an `event_id` starting `sandbox:`. It goes to every active endpoint subscribed ' +
      'to `missed_checkins`, signed, retried and logged like a real event. Nothing else happens: the canary is not marked missed, no message ' +
      `is released, nobody is notified. The body may be empty. ${signing}`,
    tags,
    auth: 'session-or-key',
    scope: 'read:canary',
    request: { body: ZSimulateMissedCheckinsInput },
    responses: {
      202: { description: 'The simulated event and how many endpoints it was queued for', schema: ZSimulatedMissedCheckins },
      401: { description: 'No credentials, or an invalid or revoked key' },
      403: { description: 'Not a sandbox API key (a live key or a session), or a key without read:canary' },
      404: { description: 'No such canary of yours, or no active canary when canary_id is omitted' },
      422: { description: 'canary_id is not a UUID, or an unknown field' },
      429: { description: 'Monthly API call limit reached' },
    },
  },
];
