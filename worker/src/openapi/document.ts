import { z } from 'zod';
import { MAX_JSON_BYTES } from '../lib/json-body';
import type { RouteDoc } from '../api/route-doc';
import { ROUTE_DOCS } from './routes';
import { isManagementPath } from '../api/key-floor';

/*
 * The OpenAPI 3.1 document, generated from ROUTE_DOCS (the same list the API-key policy reads) and the
 * zod contracts (z.toJSONSchema: request bodies as the client sends them, `io: 'input'`; responses as
 * the server answers, `io: 'output'`). Served at GET /api/openapi.json; rendered by GET /api/docs.
 * docs/decisions/openapi.md says why it is built this way.
 */

type Json = Record<string, unknown>;

/** Every error: `{detail}`, a sentence or FastAPI-style field issues (docs/decisions/api-errors.md). */
const ERROR_SCHEMA = {
  type: 'object',
  required: ['detail'],
  properties: {
    detail: {
      description: 'What went wrong: a sentence, or (422) one entry per invalid field.',
      oneOf: [
        { type: 'string' },
        {
          type: 'array',
          items: {
            type: 'object',
            required: ['loc', 'msg', 'type'],
            properties: {
              loc: { type: 'array', items: { type: ['string', 'integer'] }, description: 'Where: ["body", "email"], ["query", "limit"]…' },
              msg: { type: 'string' },
              type: { type: 'string', description: 'A machine-readable kind: missing, invalid_type, too_small…' },
            },
          },
        },
      ],
    },
    request_id: { type: 'string', description: 'Only on 500: the id under which the error was logged.' },
  },
} as const;

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** Tag order and descriptions. Tags used by entries but not listed here are appended as they come. */
const TAGS: { name: string; description: string }[] = [
  { name: 'Accounts', description: 'Registration, sign-in, sessions, password change and reset.' },
  { name: 'Canaries', description: 'Check-in timers. Miss a deadline and the messages with a missed-check-ins rule start to arm.' },
  { name: "Dead-man's switch", description: 'Account deletion after a chosen number of hours without a check-in.' },
  { name: 'Legal', description: 'Deletions that will happen, listed beforehand.' },
  {
    name: 'Messages',
    description:
      'Prepared messages, released to their recipients when their rules fire. Every message route answers 404 for a message that is not yours (or not yet released to you).',
  },
  { name: 'Attachments', description: 'Files encrypted in the client (AES-GCM-256); the server stores ciphertext only.' },
  { name: 'Notifications', description: 'How and when the account holder is told things; Web Push devices.' },
  { name: 'Profile', description: 'Name, time zone, the verified phone that sms and call deliveries use, storage.' },
  { name: 'Encryption keys', description: 'End-to-end encryption key bundles (formats: worker/src/contracts/e2ee.ts, v1).' },
  {
    name: 'Contacts',
    description:
      'People you can pick by name as a recipient or guardian: invited by email (the same answer whether or not the address has an account), mutual once accepted. Anything not yours is 404.',
  },
  {
    name: 'Voice',
    description:
      'Voice samples (type and duration measured by the server from the bytes) and the voice profile trained from them: a pitch and speaking-rate profile for a speech synthesiser, not a neural clone.',
  },
  {
    name: 'Persona',
    description: 'Who you are in your own words, the tone of replies and your answers to the 10 seed questions: what the persona will answer from.',
  },
  { name: 'Developer', description: 'API keys and webhooks: session only (an API key never manages keys or webhooks).' },
  { name: 'Outbox (local)', description: 'Outside production nothing is really sent: deliveries land here.' },
  { name: 'Reference', description: 'Liveness, this document and its reference page.' },
];

const DESCRIPTION = `The REST API of Afterword: check-ins (canaries), a dead-man's switch, and prepared messages released to chosen people.

**Authentication.** \`Authorization: Bearer <token>\` where an operation needs it (each operation lists its security). Two kinds of token:
- a *session token*: \`access_token\` from \`POST /api/auth/login\` (opaque, 30 days by default, revoked by \`POST /api/auth/logout\`). A session may call every operation.
- an *API key*: \`afw_live_…\`, or \`afw_test_…\` for a sandbox key (acts on your data, never sends a real delivery), created on the Developer page and shown once. A key opens only the operations marked with \`x-scope\`, and only when it holds that scope; every other operation answers a key with 403 (keys never manage keys, webhooks or the account). Each accepted key call counts against the plan's monthly API calls: \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (epoch seconds) come with every key answer, and past the quota the answer is 429 with \`Retry-After\`.

**Bodies and errors.** JSON bodies up to 1 MiB unless an operation says otherwise (\`Content-Type: application/json\`; anything else is 415, larger is 413, malformed JSON is 400). Every error is \`{"detail": …}\`: a sentence, or for 422 a list of \`{loc, msg, type}\`, one per invalid field. An id that is not yours is 404, exactly like one that does not exist.

**Not listed here.** The web app talks to the same services through tRPC at \`/api/trpc\`. That endpoint is internal to the web app: its procedures may change with any release, and API keys are refused there. Integrate with the operations below.`;

const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A session token (`access_token` from POST /api/auth/login) or an API key (`afw_live_…`, sandbox `afw_test_…`). Keys open only operations marked `x-scope` and need that scope; anything else answers a key with 403.',
  },
};

/** JSON Schema (2020-12, what OpenAPI 3.1 uses) of a zod schema, without the `$schema` line. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  let out: Json;
  try {
    out = z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as Json;
  } catch {
    // A transform has no JSON Schema for its output (e.g. de-duplicated lists): the input shape is
    // what the answer looks like in practice.
    out = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as Json;
  }
  delete out.$schema;
  // `#/$defs/…` would resolve against this document's root, not the schema: refuse rather than
  // publish a dangling reference (recursive or id-registered schemas need components first).
  if ('$defs' in out) throw new Error('openapi: a contract schema produced $defs; inline it or register it under components');
  return out;
}

const pathParams = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

function parameters(route: RouteDoc): Json[] {
  const params: Json[] = [];
  const pathSchema = route.request?.params ? jsonSchema(route.request.params, 'input') : undefined;
  const pathProps = (pathSchema?.properties ?? {}) as Record<string, Json>;
  for (const name of pathParams(route.path)) {
    const { description, ...schema } = pathProps[name] ?? { type: 'string' };
    params.push({ name, in: 'path', required: true, ...(description ? { description } : {}), schema });
  }
  if (route.request?.query) {
    const q = jsonSchema(route.request.query, 'input');
    const required = new Set((q.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries((q.properties ?? {}) as Record<string, Json>)) {
      const { description, ...schema } = prop;
      params.push({ name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema });
    }
  }
  for (const header of route.request?.headers ?? []) {
    params.push({ name: header.name, in: 'header', required: header.required ?? false, description: header.description, schema: { type: 'string' } });
  }
  return params;
}

function requestBody(route: RouteDoc): Json | undefined {
  const body = route.request?.body;
  if (!body) return undefined;
  const schema = jsonSchema(body, 'input');
  const contentType = route.request?.contentType ?? 'application/json';
  const hasRequired = Array.isArray(schema.required) && schema.required.length > 0;
  return { required: hasRequired, content: { [contentType]: { schema } } };
}

const keyHeaders = {
  'X-RateLimit-Limit': { description: 'API-key calls only: the monthly quota of the plan', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'API-key calls only: calls left this month', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'API-key calls only: when the quota resets (epoch seconds)', schema: { type: 'integer' } },
};

/** The errors every operation of its kind can answer, unless the entry describes them itself. */
function standardErrors(route: RouteDoc): Record<number, string> {
  const errors: Record<number, string> = {};
  // A route that only refuses the method (GET /api/ping/{token} → 405) answers nothing else.
  if (Object.keys(route.responses).every((status) => status === '405')) return errors;
  const body = route.request?.body;
  const multipart = route.request?.contentType === 'multipart/form-data';
  if (body) {
    errors[400] = multipart ? 'The body could not be read as multipart/form-data' : 'Malformed JSON body';
  }
  // Keys never reach the account's own paths, even the public ones (sign-in, registration): a key sent there is refused.
  if (route.auth === 'none' && isManagementPath(route.path)) errors[403] = 'An API key was sent: keys never reach sign-in, sessions or the account';
  if (route.auth !== 'none') {
    errors[401] = 'Not authenticated: no bearer token, or an unknown, expired or revoked session token or API key';
    errors[403] =
      route.auth === 'session-or-key'
        ? `An API key without the ${route.scope ?? ''} scope called`
        : 'An API key called: this operation needs a signed-in session';
  }
  if (pathParams(route.path).length) errors[404] = 'Not found, or not yours (a malformed id too)';
  if (body) {
    errors[413] = multipart ? 'The upload is too large' : `The JSON body is larger than ${MAX_JSON_BYTES} bytes (1 MiB)`;
    errors[415] = multipart ? 'The body is not multipart/form-data' : 'The body is not JSON (send Content-Type: application/json)';
  }
  if (body || route.request?.query) errors[422] = 'Validation failed: `detail` lists each invalid field as {loc, msg, type}';
  if (route.auth === 'session-or-key') {
    errors[429] = "API keys: the plan's monthly API-call quota is spent; retry after `Retry-After` seconds";
  }
  return errors;
}

function responseHeaders(route: RouteDoc, status: number): Json | undefined {
  const headers: Json = {};
  if (status === 429) headers['Retry-After'] = { description: 'Seconds to wait before trying again', schema: { type: 'integer' } };
  if (status === 405) headers.Allow = { description: 'The method to use', schema: { type: 'string' } };
  if (status === 302) headers.Location = { description: 'Where to go next', schema: { type: 'string' } };
  if (route.auth === 'session-or-key') Object.assign(headers, keyHeaders);
  return Object.keys(headers).length ? headers : undefined;
}

function responses(route: RouteDoc): Json {
  const merged: Record<number, RouteDoc['responses'][number]> = {};
  for (const [status, description] of Object.entries(standardErrors(route))) merged[Number(status)] = { description };
  for (const [status, r] of Object.entries(route.responses)) merged[Number(status)] = r;
  const out: Json = {};
  for (const status of Object.keys(merged)
    .map(Number)
    .sort((a, b) => a - b)) {
    const r = merged[status]!;
    const entry: Json = { description: r.description };
    const types = [r.contentType ?? 'application/json'].flat();
    if (r.schema) entry.content = Object.fromEntries(types.map((type) => [type, { schema: jsonSchema(r.schema!, 'output') }]));
    else if (status >= 400) entry.content = { 'application/json': { schema: ERROR_REF } };
    else if (r.contentType) entry.content = Object.fromEntries(types.map((type) => [type, {}]));
    const headers = responseHeaders(route, status);
    if (headers) entry.headers = headers;
    out[String(status)] = entry;
  }
  return out;
}

/** "**Limits** …: at most 25 active API keys per account (403)." */
function limitsSentence(route: RouteDoc): string | undefined {
  if (!route.limits?.length) return undefined;
  const each = route.limits.map((l) => {
    const most = l.max === 'plan' ? `as many ${l.what} as your plan allows` : `at most ${l.max.toLocaleString('en-US')} ${l.what}`;
    const span = l.per === 'account' ? 'per account' : l.per === 'file' ? 'per file' : `in any ${l.per}`;
    return `${most} ${span} (${l.refusal})`;
  });
  return `**Limits** (held however requests interleave): ${each.join('; ')}.`;
}

function authSentence(route: RouteDoc): string {
  if (route.auth === 'none') return '**Auth:** none (public).';
  if (route.auth === 'session-or-key') return `**Auth:** a session, or an API key with the \`${route.scope}\` scope.`;
  return route.authOptional
    ? '**Auth:** optional (see above); when credentials are sent, a signed-in session only (API keys get 403).'
    : '**Auth:** a signed-in session only (API keys get 403).';
}

function operation(route: RouteDoc): Json {
  const op: Json = {
    operationId: route.operationId,
    summary: route.summary,
    description: [route.description, limitsSentence(route), authSentence(route)].filter(Boolean).join('\n\n'),
    tags: route.tags,
  };
  if (route.limits?.length) op['x-limits'] = route.limits;
  const params = parameters(route);
  if (params.length) op.parameters = params;
  const body = requestBody(route);
  if (body) op.requestBody = body;
  op.responses = responses(route);
  op.security = route.auth === 'none' ? [] : route.authOptional ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }];
  op['x-auth'] = route.auth;
  if (route.scope) op['x-scope'] = route.scope;
  return op;
}

/** The document without `servers` (which depends on the request's origin). */
export function buildOpenApiDocument(routes: readonly RouteDoc[] = ROUTE_DOCS): Json {
  const paths: Record<string, Json> = {};
  const tagNames: string[] = TAGS.map((t) => t.name);
  for (const route of routes) {
    const item = paths[route.path] ?? {};
    paths[route.path] = item;
    if (item[route.method]) throw new Error(`openapi: ${route.method.toUpperCase()} ${route.path} is documented twice`);
    item[route.method] = operation(route);
    for (const tag of route.tags) if (!tagNames.includes(tag)) tagNames.push(tag);
  }
  const used = new Set(routes.flatMap((r) => r.tags));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Afterword API',
      version: '1.0.0',
      description: DESCRIPTION,
    },
    tags: tagNames.filter((t) => used.has(t)).map((name) => TAGS.find((t) => t.name === name) ?? { name }),
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: { Error: ERROR_SCHEMA },
    },
  };
}

let base: Json | undefined;
const rendered = new Map<string, string>();

/**
 * The document as JSON for one origin (`servers: [{url: origin}]`), built once per isolate. A few
 * origins are kept (the Host header is the client's to choose, so the cache stays small).
 */
export function openApiJson(origin: string): string {
  const hit = rendered.get(origin);
  if (hit) return hit;
  base ??= buildOpenApiDocument();
  const { openapi, info, ...rest } = base;
  const json = JSON.stringify({ openapi, info, servers: [{ url: origin, description: 'This server' }], ...rest });
  if (rendered.size >= 4) rendered.clear();
  rendered.set(origin, json);
  return json;
}
