import { ZIdParam } from '../../contracts/ids';
import { defineOperation } from '../../api/operation';
import { API_SCOPES, MAX_ACTIVE_API_KEYS, ZApiKeyList, ZCreateApiKeyInput, ZCreatedApiKey, ZRevokedApiKey } from '../../contracts/developer';
import { ZDeathReportInput, ZDeathReportResult } from '../../contracts/guardian';
import { DEATH_REPORT_KEY_ONLY, reportDeath } from './death-verification';
import { createApiKey, keyNotFound, listApiKeys, revokeApiKey } from './manage-keys';

/**
 * /api/developer/keys (`developer.keys.*`, the web app's Developer page): a signed-in person manages
 * their keys; an API key gets 403 (the key policy, whose management floor covers /api/developer, and
 * `access`). Then the key-only death report.
 */
const tags = ['Developer'];
const session = { kind: 'session' } as const;
const keyRefused = 'An API key called: keys cannot manage keys, webhooks or the account';

export const developerOperations = [
  defineOperation({
    method: 'post',
    path: '/api/developer/keys',
    trpc: 'create',
    access: session,
    input: { body: ZCreateApiKeyInput },
    output: ZCreatedApiKey,
    status: 201,
    docs: {
      operationId: 'createApiKey',
      limits: [{ what: 'active API keys', max: MAX_ACTIVE_API_KEYS, per: 'account', refusal: 403 }],
      summary: 'Create an API key',
      description:
        `The key (\`afw_live_…\`, or \`afw_test_…\` with \`sandbox\`) is in this answer only: the server keeps its SHA-256 and a display prefix. ` +
        `Scopes: ${API_SCOPES.join(', ')}. Send it as \`Authorization: Bearer <key>\`; every key call counts against the plan's monthly API calls.`,
      tags,
      responses: {
        201: { description: 'The new key, shown once' },
        403: { description: `${keyRefused}; or the account already holds the maximum number of active keys` },
        422: { description: 'Empty name, no scope or an unknown scope' },
      },
    },
    run: ({ services, principal }, input) => createApiKey(services, principal.user.id, input),
  }),
  defineOperation({
    method: 'get',
    path: '/api/developer/keys',
    trpc: 'list',
    access: session,
    input: {},
    output: ZApiKeyList,
    docs: {
      operationId: 'listApiKeys',
      summary: 'List API keys',
      description: 'The caller’s active keys, newest first: never the key itself, only its prefix.',
      tags,
      responses: { 200: { description: 'Active keys' }, 403: { description: keyRefused } },
    },
    run: ({ services, principal }) => listApiKeys(services, principal.user.id),
  }),
  defineOperation({
    method: 'delete',
    path: '/api/developer/keys/{id}',
    trpc: 'revoke',
    access: session,
    input: { params: ZIdParam },
    output: ZRevokedApiKey,
    notFound: keyNotFound,
    docs: {
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key',
      description: 'The key answers 401 from its next call on.',
      tags,
      responses: {
        200: { description: 'Revoked' },
        403: { description: keyRefused },
        404: { description: 'Key not found (not yours, or already revoked)' },
      },
    },
    run: ({ services, principal }, { id }) => revokeApiKey(services, principal.user.id, id),
  }),
  // /api/death-verification: the key-only death report of an executor's system (guardian ladder).
  defineOperation({
    method: 'post',
    path: '/api/death-verification/report',
    trpc: false,
    access: { kind: 'key', scope: 'webhook:death-verification', refusal: DEATH_REPORT_KEY_ONLY },
    input: { body: ZDeathReportInput },
    output: ZDeathReportResult,
    status: 202,
    docs: {
      operationId: 'reportDeath',
      summary: "Report the key holder's death",
      description:
        "API keys only, with the `webhook:death-verification` scope: an executor's system reports the death of the account the key belongs to (never anyone else's). " +
        "It opens the veto window (the owner's guardian settings, 72 h by default): the owner is told on every channel at once and halfway, any check-in refutes it, and only a window that passes unrefuted confirms the death, " +
        'which fires delay-after-death rules and the `death_confirmed` webhook. A sandbox key runs the same path marked `sandbox: true` (notices to the outbox only; the death is never confirmed for real). ' +
        "Reporting again while a report is open records nothing new (`already_reported`). `note` (≤ 500 characters) is kept on the report's step.",
      tags,
      responses: {
        202: { description: 'Reported: the veto window is open (see `report.window_ends_at`)' },
        403: { description: 'Called with a session, or by a key without the webhook:death-verification scope' },
        409: { description: 'The death is already confirmed' },
        422: { description: '`note` is not text or too long' },
      },
    },
    run: ({ services, principal }, input) => reportDeath(services, principal, input),
  }),
] as const;
