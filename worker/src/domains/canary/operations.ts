import { z } from 'zod';
import { ZIdParam } from '../../contracts/ids';
import { defineOperation } from '../../api/operation';
import {
  ZCanary,
  ZCanaryStatus,
  ZCanaryWarnings,
  ZCheckInInput,
  ZCheckInLink,
  ZCheckInLinkParams,
  ZCheckInResult,
  ZCreateCanaryInput,
  ZPauseCanaryInput,
  ZUpdateCanaryInput,
} from '../../contracts/canary';
import { PAUSE_MAX_DAYS } from '../../contracts/canary-schedule';
import { describeCheckInLink, redeemCheckInLink } from './check-in-links';
import { pauseCanary, resumeCanary, updateCanary } from './update-canary';
import { canaryWarnings } from './canary-warnings';
import { unauthenticated } from '../../lib/errors';
import { ZOk } from '../../contracts/transport';
import { checkInAll, checkInWithToken } from './check-in';
import { createCanary } from './create-canary';
import { deleteCanary } from './delete-canary';
import { canaryNotFound, canaryStatus, listCanaries } from './list-canaries';

/**
 * docs/api.md: /api/canary/*, and the cron-job check-in POST /api/ping/{token} (its 405 for every
 * other method is a plain route: rest.ts).
 */
const tags = ['Canaries'];
const readCanary = { kind: 'session-or-key', scope: 'read:canary' } as const;
/** /api/ping/{token} (also documented for its 405: openapi/routes/canary.ts). */
export const ZPingParams = z.object({ token: z.string().describe('The canary token returned by POST /api/canary/create (and shown on the canary)') });

export const canaryOperations = [
  defineOperation({
    method: 'post',
    path: '/api/canary/create',
    trpc: 'create',
    access: { kind: 'session' },
    input: { body: ZCreateCanaryInput },
    output: ZCanary,
    status: 201,
    docs: {
      operationId: 'createCanary',
      limits: [{ what: 'canaries', max: 'plan', per: 'account', refusal: 403 }],
      summary: 'Create a canary',
      description:
        "A check-in timer: miss its deadline (`interval_seconds` after the last check-in) and the messages with a missed-check-ins rule start to arm. With an optional calendar `schedule` (weekly on chosen days, monthly on a day or a weekday such as the first Monday, at a wall time in an IANA time zone, with `grace_seconds`), the deadline is instead the first scheduled time after the last check-in plus the grace period; a wall time skipped by a DST change moves forward by the gap, a repeated one is its later instant, so a deadline is never early. The plan limits how many canaries an account may have (403 with an upgrade hint). Sent again with the same optional `idempotency_key` and input (its first answer lost), the call answers with the canary its first try wrote, never a second canary nor the plan's limit.",
      tags,
      responses: {
        201: { description: 'The canary, with its check-in `token`' },
        403: { description: "The plan's canary limit is reached (or an API key called)" },
        409: { description: '`idempotency_key` was already used for a canary with a different input' },
        422: { description: 'An invalid interval or schedule (unknown time zone, no weekday, grace too long)' },
      },
    },
    run: ({ services, principal }, input) => createCanary(services, principal.user, input),
  }),
  defineOperation({
    method: 'get',
    path: '/api/canary/list',
    trpc: 'list',
    access: readCanary,
    input: {},
    output: z.array(ZCanary),
    docs: { operationId: 'listCanaries', summary: 'List canaries', tags, responses: { 200: { description: 'Every canary of the caller' } } },
    run: ({ services, principal }) => listCanaries(services, principal.user.id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/canary/status',
    trpc: 'status',
    access: readCanary,
    input: {},
    output: ZCanaryStatus,
    docs: {
      operationId: 'canaryStatus',
      summary: 'Check-in status',
      description: 'The canary with the earliest deadline; every field null (and `missed: false`) when the caller has no canary.',
      tags,
      responses: { 200: { description: 'Status' } },
    },
    run: ({ services, principal }) => canaryStatus(services, principal.user.id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/canary/{id}/warnings',
    trpc: 'warnings',
    access: readCanary,
    input: { params: ZIdParam },
    output: ZCanaryWarnings,
    notFound: canaryNotFound,
    docs: {
      operationId: 'canaryWarnings',
      summary: "Where the canary's warnings went",
      description:
        'What the owner was told about this canary, newest first: each grace reminder, re-warning and miss, with every channel it was tried on (address masked) and whether that channel accepted it. A warning with `delivered_at` null reached no channel yet: it is tried again with backoff, and no miss of its cycle counts meanwhile.',
      tags,
      responses: { 200: { description: 'The notices and their deliveries' }, 404: { description: 'Canary not found (or not yours)' } },
    },
    run: ({ services, principal }, { id }) => canaryWarnings(services, principal.user.id, id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/canary/checkin',
    trpc: 'checkIn',
    // A token needs no sign-in; without one, the session's canaries (so public, with the session read in `run`).
    access: { kind: 'public' },
    input: { body: ZCheckInInput },
    output: ZCheckInResult,
    docs: {
      operationId: 'checkIn',
      summary: 'Check in',
      description: '`{token}` checks in that canary and needs no sign-in; `{}` with a session checks in every canary of the caller.',
      tags,
      authOptional: true,
      responses: {
        200: { description: 'Checked in' },
        401: { description: 'No token in the body and no session' },
        404: { description: 'Unknown canary token' },
      },
    },
    run: ({ services, principal }, { token }) => {
      if (token) return checkInWithToken(services, token, 'token');
      if (!principal) throw unauthenticated();
      return checkInAll(services, principal.user.id, 'web');
    },
  }),
  defineOperation({
    method: 'delete',
    path: '/api/canary/{id}',
    trpc: 'delete',
    access: { kind: 'session' },
    input: { params: ZIdParam },
    output: ZOk,
    notFound: canaryNotFound,
    docs: {
      operationId: 'deleteCanary',
      summary: 'Delete a canary',
      description: 'Its token stops working at once.',
      tags,
      responses: { 200: { description: 'Deleted' }, 404: { description: 'Canary not found (or not yours)' } },
    },
    run: ({ services, principal }, { id }) => deleteCanary(services, principal.user.id, id),
  }),
  defineOperation({
    method: 'patch',
    path: '/api/canary/{id}',
    trpc: 'update',
    access: { kind: 'session' },
    input: { params: ZIdParam, body: ZUpdateCanaryInput },
    output: ZCanary,
    notFound: canaryNotFound,
    docs: {
      operationId: 'updateCanary',
      summary: 'Change a canary (name, interval, calendar schedule)',
      description:
        'Fields left out stay as they are; `schedule: null` goes back to the interval. The deadline follows from the last check-in under the new cadence (a deadline already passed warns the owner before anything counts). API keys cannot change canaries.',
      tags,
      responses: {
        200: { description: 'The canary as changed' },
        404: { description: 'Canary not found (or not yours)' },
        409: { description: 'The canary is missed: check in first' },
        422: { description: 'An invalid interval or schedule' },
      },
    },
    run: ({ services, principal }, { id, ...body }) => updateCanary(services, principal.user.id, id, body),
  }),
  defineOperation({
    method: 'post',
    path: '/api/canary/{id}/pause',
    trpc: 'pause',
    access: { kind: 'session' },
    input: { params: ZIdParam, body: ZPauseCanaryInput },
    output: ZCanary,
    notFound: canaryNotFound,
    docs: {
      operationId: 'pauseCanary',
      summary: 'Pause a canary for a vacation',
      description: `No deadline, warning or missed check-in until \`until\` (at most ${PAUSE_MAX_DAYS} days ahead); the owner is told a day before the pause ends, and the next deadline is counted from its end. Pausing again replaces the end. API keys cannot pause canaries.`,
      tags,
      responses: {
        200: { description: 'The canary, with `paused_until` and its deadline after the pause' },
        404: { description: 'Canary not found (or not yours)' },
        409: { description: 'The canary is missed: check in first' },
        422: { description: `\`until\` is not in the future or more than ${PAUSE_MAX_DAYS} days ahead` },
      },
    },
    run: ({ services, principal }, { id, ...body }) => pauseCanary(services, principal.user.id, id, body),
  }),
  defineOperation({
    method: 'post',
    path: '/api/canary/{id}/resume',
    trpc: 'resume',
    access: { kind: 'session' },
    input: { params: ZIdParam },
    output: ZCanary,
    notFound: canaryNotFound,
    docs: {
      operationId: 'resumeCanary',
      summary: 'End a vacation pause now',
      description: 'The next deadline is counted from now.',
      tags,
      responses: {
        200: { description: 'The canary, no longer paused' },
        404: { description: 'Canary not found (or not yours)' },
        409: { description: 'The canary is not paused' },
      },
    },
    run: ({ services, principal }, { id }) => resumeCanary(services, principal.user.id, id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/ping/{token}',
    trpc: false,
    access: { kind: 'public' },
    input: { params: ZPingParams },
    output: ZCheckInResult,
    docs: {
      operationId: 'ping',
      summary: 'Check in from a cron job',
      description: 'The same check-in as `{token}`, for scripts: `curl -X POST https://…/api/ping/<token>`. No body, no sign-in.',
      tags,
      responses: { 200: { description: 'Checked in' }, 404: { description: 'Unknown canary token' } },
    },
    run: ({ services }, { token }) => checkInWithToken(services, token, 'ping'),
  }),
  defineOperation({
    method: 'get',
    path: '/api/check-in-links/{token}',
    trpc: 'checkInLink',
    access: { kind: 'public' },
    input: { params: ZCheckInLinkParams },
    output: ZCheckInLink,
    docs: {
      operationId: 'getCheckInLink',
      summary: "What a warning's check-in link would do",
      description:
        'Each canary warning carries a link of its own (`/check-in/{token}`). Reading it never checks in: it names the canary and says whether the link is `ready`, `used` or `expired`. No sign-in.',
      tags,
      responses: { 200: { description: 'The link' }, 404: { description: 'No such link, or its canary was deleted' } },
    },
    run: ({ services }, { token }) => describeCheckInLink(services, token),
  }),
  defineOperation({
    method: 'post',
    path: '/api/check-in-links/{token}',
    trpc: 'redeemCheckInLink',
    access: { kind: 'public' },
    input: { params: ZCheckInLinkParams },
    output: ZCheckInResult,
    docs: {
      operationId: 'redeemCheckInLink',
      summary: "Check in with a warning's link",
      description: 'Checks in the canary the warning was about (source `link`). Each link works once, for 7 days after its warning was sent. No sign-in.',
      tags,
      responses: {
        200: { description: 'Checked in' },
        404: { description: 'No such link, or its canary was deleted' },
        409: { description: 'The link was already used, or has expired' },
      },
    },
    run: ({ services }, { token }) => redeemCheckInLink(services, token),
  }),
] as const;
