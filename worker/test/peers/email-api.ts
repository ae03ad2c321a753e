import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

/**
 * A fake of Resend's send-email endpoint (https://resend.com/docs/api-reference/emails/send-email) on
 * 127.0.0.1, for the email channel's HTTP API adapter:
 *
 * - `POST /emails` requires `Authorization: Bearer <apiKey>` (401 `missing_api_key` without it,
 *   403 `invalid_api_key` with another key) and `Content-Type: application/json`; the body must have
 *   `from`, `to` (string or array of strings), `subject` and `text` or `html` (422 `validation_error`
 *   otherwise). Success: `200 {"id": "<uuid>"}`.
 * - `Idempotency-Key`: the same key with the same body answers the first response again without
 *   sending; with a different body, 409 `invalid_idempotent_request` (as Resend documents).
 * - Recipient conventions make the next answer an error: `status-429@…` (with `Retry-After`),
 *   `status-500@…`, `status-422@…`.
 * - `GET /__sent?to=addr` lists what was accepted (body, headers, id), for assertions.
 */
export interface EmailApiPeerInfo {
  base: string;
  apiKey: string;
}

declare module 'vitest' {
  interface ProvidedContext {
    emailApiPeer: EmailApiPeerInfo;
  }
}

export interface SentEmail {
  id: string;
  body: { from: string; to: string | string[]; subject: string; text?: string; html?: string };
  idempotencyKey: string | null;
  authorization: string | null;
  contentType: string | null;
}

const API_KEY = 're_test_afterword_4f1c9e7b2d';

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function error(res: ServerResponse, status: number, name: string, message: string, headers?: Record<string, string>) {
  send(res, status, { statusCode: status, name, message }, headers);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startEmailApiPeer(project: TestProject) {
  const sent: SentEmail[] = [];
  const idempotent = new Map<string, { hash: string; status: number; body: unknown }>();

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => error(res, 500, 'internal_server_error', 'fake failed'));
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/__sent') {
      const to = url.searchParams.get('to');
      const list = to ? sent.filter((s) => [s.body.to].flat().some((t) => t.toLowerCase().includes(to.toLowerCase()))) : sent;
      return send(res, 200, list);
    }
    if (url.pathname !== '/emails') return error(res, 404, 'not_found', 'The requested endpoint does not exist.');
    if (req.method !== 'POST') return error(res, 405, 'method_not_allowed', 'Method is not allowed for the requested path.');

    const auth = req.headers.authorization ?? null;
    if (!auth?.startsWith('Bearer ')) return error(res, 401, 'missing_api_key', 'Missing API key in the authorization header.');
    if (auth !== `Bearer ${API_KEY}`) return error(res, 403, 'invalid_api_key', 'API key is invalid.');
    const contentType = req.headers['content-type'] ?? null;
    if (!contentType?.startsWith('application/json')) {
      return error(res, 422, 'validation_error', 'Content-Type must be application/json.');
    }

    const raw = await readBody(req);
    let body: SentEmail['body'];
    try {
      body = JSON.parse(raw) as SentEmail['body'];
    } catch {
      return error(res, 422, 'validation_error', 'Invalid JSON body.');
    }
    const to = [body.to].flat();
    if (typeof body.from !== 'string' || !body.from) return error(res, 422, 'validation_error', 'The `from` field is required.');
    if (to.length === 0 || to.some((t) => typeof t !== 'string' || !t.includes('@'))) {
      return error(res, 422, 'validation_error', 'The `to` field must be an email address or a list of them.');
    }
    if (typeof body.subject !== 'string') return error(res, 422, 'validation_error', 'The `subject` field is required.');
    if (typeof body.text !== 'string' && typeof body.html !== 'string') {
      return error(res, 422, 'validation_error', 'Either `text` or `html` is required.');
    }

    const local = (to[0]!.match(/<([^>]+)>/)?.[1] ?? to[0]!).split('@')[0]!.toLowerCase();
    if (local === 'status-429') {
      return error(res, 429, 'rate_limit_exceeded', 'Too many requests. You can only make 2 requests per second.', { 'retry-after': '1' });
    }
    if (local === 'status-500') return error(res, 500, 'internal_server_error', 'An unexpected error occurred.');
    if (local === 'status-422') return error(res, 422, 'validation_error', 'Invalid `to` field.');

    const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
    const hash = createHash('sha256').update(raw).digest('hex');
    if (key) {
      const prior = idempotent.get(key);
      if (prior && prior.hash !== hash) {
        return error(res, 409, 'invalid_idempotent_request', 'Same idempotency key used with a different request payload.');
      }
      if (prior) return send(res, prior.status, prior.body);
    }

    const id = randomUUID();
    sent.push({ id, body, idempotencyKey: key, authorization: auth, contentType });
    if (key) idempotent.set(key, { hash, status: 200, body: { id } });
    return send(res, 200, { id });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  project.provide('emailApiPeer', { base: `http://127.0.0.1:${port}`, apiKey: API_KEY });
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
