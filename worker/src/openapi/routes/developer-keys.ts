import { API_SCOPES, ZApiKeyId, ZApiKeyList, ZCreateApiKeyInput, ZCreatedApiKey, ZRevokedApiKey } from '../../contracts/developer';
import type { RouteDoc } from '../route-doc';

const tags = ['Developer'];
const keyRefused = 'An API key called: keys cannot manage keys, webhooks or the account';

/** /api/developer/keys and the key-only death report (domains/developer/rest.ts). */
export const routes: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/developer/keys',
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description:
      `The key (\`afw_live_…\`, or \`afw_test_…\` with \`sandbox\`) is in this answer only: the server keeps its SHA-256 and a display prefix. ` +
      `Scopes: ${API_SCOPES.join(', ')}. Send it as \`Authorization: Bearer <key>\`; every key call counts against the plan's monthly API calls.`,
    tags,
    auth: 'session',
    request: { body: ZCreateApiKeyInput },
    responses: {
      201: { description: 'The new key, shown once', schema: ZCreatedApiKey },
      403: { description: `${keyRefused}; or the account already holds the maximum number of active keys` },
      422: { description: 'Empty name, no scope or an unknown scope' },
    },
  },
  {
    method: 'get',
    path: '/api/developer/keys',
    operationId: 'listApiKeys',
    summary: 'List API keys',
    description: 'The caller’s active keys, newest first: never the key itself, only its prefix.',
    tags,
    auth: 'session',
    responses: { 200: { description: 'Active keys', schema: ZApiKeyList }, 403: { description: keyRefused } },
  },
  {
    method: 'delete',
    path: '/api/developer/keys/{id}',
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description: 'The key answers 401 from its next call on.',
    tags,
    auth: 'session',
    request: { params: ZApiKeyId },
    responses: {
      200: { description: 'Revoked', schema: ZRevokedApiKey },
      403: { description: keyRefused },
      404: { description: 'Key not found (not yours, or already revoked)' },
    },
  },
  {
    method: 'post',
    path: '/api/death-verification/report',
    operationId: 'reportDeath',
    summary: 'Report a death (reserved)',
    description:
      'API keys only, with the `webhook:death-verification` scope. Reserved for the guardian capability: until it arrives the call changes nothing and answers 501.',
    tags,
    auth: 'session-or-key',
    scope: 'webhook:death-verification',
    responses: {
      403: { description: 'Called with a session, or by a key without the webhook:death-verification scope' },
      501: { description: 'Not implemented yet: death reports arrive with the guardian capability' },
    },
  },
];
