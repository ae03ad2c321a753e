import { z } from 'zod';
import { ZCanary, ZCanaryId, ZCanaryStatus, ZCheckInInput, ZCheckInResult, ZCreateCanaryInput } from '../../contracts/canary';
import type { RouteDoc } from '../route-doc';
import { ZOk } from '../schemas';

const tags = ['Canaries'];
const ZToken = z.object({ token: z.string().describe('The canary token returned by POST /api/canary/create (and shown on the canary)') });

/** /api/canary/* and the cron-job check-in /api/ping/{token} (domains/canary/rest.ts). */
export const routes: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/canary/create',
    operationId: 'createCanary',
    summary: 'Create a canary',
    description: 'A check-in timer: miss its deadline (`interval_seconds` after the last check-in) and the messages with a missed-check-ins rule start to arm. The plan limits how many canaries an account may have (403 with an upgrade hint).',
    tags,
    auth: 'session',
    request: { body: ZCreateCanaryInput },
    responses: {
      201: { description: 'The canary, with its check-in `token`', schema: ZCanary },
      403: { description: "The plan's canary limit is reached (or an API key called)" },
    },
  },
  {
    method: 'get',
    path: '/api/canary/list',
    operationId: 'listCanaries',
    summary: 'List canaries',
    tags,
    auth: 'session-or-key',
    scope: 'read:canary',
    responses: { 200: { description: 'Every canary of the caller', schema: z.array(ZCanary) } },
  },
  {
    method: 'get',
    path: '/api/canary/status',
    operationId: 'canaryStatus',
    summary: 'Check-in status',
    description: 'The canary with the earliest deadline; every field null (and `missed: false`) when the caller has no canary.',
    tags,
    auth: 'session-or-key',
    scope: 'read:canary',
    responses: { 200: { description: 'Status', schema: ZCanaryStatus } },
  },
  {
    method: 'post',
    path: '/api/canary/checkin',
    operationId: 'checkIn',
    summary: 'Check in',
    description: '`{token}` checks in that canary and needs no sign-in; `{}` with a session checks in every canary of the caller.',
    tags,
    auth: 'session',
    authOptional: true,
    request: { body: ZCheckInInput },
    responses: {
      200: { description: 'Checked in', schema: ZCheckInResult },
      401: { description: 'No token in the body and no session' },
      404: { description: 'Unknown canary token' },
    },
  },
  {
    method: 'delete',
    path: '/api/canary/{id}',
    operationId: 'deleteCanary',
    summary: 'Delete a canary',
    description: 'Its token stops working at once.',
    tags,
    auth: 'session',
    request: { params: ZCanaryId },
    responses: { 200: { description: 'Deleted', schema: ZOk }, 404: { description: 'Canary not found (or not yours)' } },
  },
  {
    method: 'post',
    path: '/api/ping/{token}',
    operationId: 'ping',
    summary: 'Check in from a cron job',
    description: 'The same check-in as `{token}`, for scripts: `curl -X POST https://…/api/ping/<token>`. No body, no sign-in.',
    tags,
    auth: 'none',
    request: { params: ZToken },
    responses: { 200: { description: 'Checked in', schema: ZCheckInResult }, 404: { description: 'Unknown canary token' } },
  },
  {
    method: 'get',
    path: '/api/ping/{token}',
    operationId: 'pingWithGet',
    summary: 'A GET never checks in (405)',
    description: 'Mail scanners and link previewers fetch URLs by themselves, so any method but POST answers 405 with `Allow: POST` and changes nothing.',
    tags,
    auth: 'none',
    request: { params: ZToken },
    responses: { 405: { description: 'Use POST (the `Allow: POST` header says so)' } },
  },
];
