import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

/**
 * A Twilio peer: a node:http server speaking the two documented REST endpoints the sms and call
 * channels use,
 *   POST /2010-04-01/Accounts/{AccountSid}/Messages.json   (To, From | MessagingServiceSid, Body, StatusCallback?)
 *   POST /2010-04-01/Accounts/{AccountSid}/Calls.json      (To, From, Twiml | Url, StatusCallback?)
 * form-encoded, HTTP Basic auth (AccountSid:AuthToken or API key SID:secret), answering
 * `201 {"sid":"SM…"|"CA…","status":"queued",…}` or Twilio's error JSON `{code, message, more_info, status}`.
 *
 * Tests run in parallel, so everything is per account: a test registers its own account and
 * credentials, then reads only its own recorded requests and sets only its own behaviour.
 * Control endpoints (JSON):
 *   POST /__accounts                 {sid, authToken, apiKeys?: [{sid, secret}]}
 *   GET  /__requests?account=AC…     the requests recorded for that account (any outcome)
 *   POST /__behave?account=AC…       {mode, times?}: the next `times` (default: all) creation requests
 *                                    answer per mode: ok | invalid_to (400/21211) | unsubscribed
 *                                    (400/21610) | rate_limited (429/20429) | server_error (500/20500) | hang
 * A repeated `I-Twilio-Idempotency-Token` on the same account and resource gets the first answer's
 * resource again, without creating another one.
 */

export interface TwilioPeerInfo {
  baseUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    twilioPeer: TwilioPeerInfo;
  }
}

export type TwilioPeerMode = 'ok' | 'invalid_to' | 'unsubscribed' | 'rate_limited' | 'server_error' | 'hang';

export interface RecordedTwilioRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The form body as name → values (repeated names keep every value). */
  form: Record<string, string[]>;
  raw: string;
  /** What the peer answered (0 for a hang), and the sid of the resource it answered with. */
  answered: number;
  sid?: string;
}

interface Account {
  authToken: string;
  apiKeys: Map<string, string>;
  requests: RecordedTwilioRequest[];
  behaviour: { mode: TwilioPeerMode; times: number | null };
  idempotent: Map<string, object>;
}

const accounts = new Map<string, Account>();

function sid(prefix: string): string {
  return prefix + randomBytes(16).toString('hex');
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function twilioError(res: ServerResponse, status: number, code: number, message: string) {
  json(res, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function checkAuth(req: IncomingMessage, accountSid: string, account: Account): boolean {
  const header = req.headers.authorization ?? '';
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header);
  if (!match) return false;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const user = decoded.slice(0, colon);
  const pass = decoded.slice(colon + 1);
  if (user === accountSid) return pass === account.authToken;
  return account.apiKeys.get(user) === pass;
}

const E164 = /^\+[1-9]\d{1,14}$/;

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://peer');

  if (req.method === 'POST' && url.pathname === '/__accounts') {
    const body = JSON.parse(await readBody(req)) as { sid: string; authToken: string; apiKeys?: { sid: string; secret: string }[] };
    accounts.set(body.sid, {
      authToken: body.authToken,
      apiKeys: new Map((body.apiKeys ?? []).map((k) => [k.sid, k.secret])),
      requests: [],
      behaviour: { mode: 'ok', times: null },
      idempotent: new Map(),
    });
    return json(res, 201, { ok: true });
  }
  if (url.pathname === '/__requests' || url.pathname === '/__behave') {
    const account = accounts.get(url.searchParams.get('account') ?? '');
    if (!account) return json(res, 404, { error: 'unknown account' });
    if (req.method === 'GET' && url.pathname === '/__requests') return json(res, 200, account.requests);
    if (req.method === 'POST' && url.pathname === '/__behave') {
      const body = JSON.parse(await readBody(req)) as { mode: TwilioPeerMode; times?: number };
      account.behaviour = { mode: body.mode, times: body.times ?? null };
      return json(res, 200, { ok: true });
    }
  }

  const route = /^\/2010-04-01\/Accounts\/([^/]+)\/(Messages|Calls)\.json$/.exec(url.pathname);
  if (!route) return twilioError(res, 404, 20404, 'The requested resource was not found');
  const accountSid = decodeURIComponent(route[1]!);
  const resource = route[2] as 'Messages' | 'Calls';
  const raw = await readBody(req);
  const account = accounts.get(accountSid);
  if (req.method !== 'POST') return twilioError(res, 405, 20004, 'Method not allowed');
  if (!account || !checkAuth(req, accountSid, account)) return twilioError(res, 401, 20003, 'Authenticate');

  const params = new URLSearchParams(raw);
  const form: Record<string, string[]> = {};
  for (const [name, value] of params) {
    const values = form[name] ?? [];
    form[name] = values;
    values.push(value);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
  const record: RecordedTwilioRequest = { method: req.method, path: url.pathname, headers, form, raw, answered: 0 };
  account.requests.push(record);

  const answer = (status: number, body: unknown) => {
    record.answered = status;
    json(res, status, body);
  };
  const fail = (status: number, code: number, message: string) => {
    record.answered = status;
    twilioError(res, status, code, message);
  };

  const { behaviour } = account;
  const mode = behaviour.times === null || behaviour.times > 0 ? behaviour.mode : 'ok';
  if (behaviour.times !== null && behaviour.times > 0) behaviour.times -= 1;
  switch (mode) {
    case 'hang':
      return; // never answers; the client's timeout must fire (the socket is destroyed at teardown)
    case 'rate_limited':
      return fail(429, 20429, 'Too Many Requests');
    case 'server_error':
      return fail(500, 20500, 'Internal Server Error');
    case 'invalid_to':
      return fail(400, 21211, `The 'To' number ${params.get('To') ?? ''} is not a valid phone number.`);
    case 'unsubscribed':
      return fail(400, 21610, 'Attempt to send to unsubscribed recipient');
    case 'ok':
      break;
  }

  if (!(headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return fail(400, 20001, 'Content-Type must be application/x-www-form-urlencoded');
  }
  const to = params.get('To');
  if (!to) return fail(400, resource === 'Messages' ? 21604 : 21201, "A 'To' phone number is required.");
  if (!E164.test(to)) return fail(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
  const from = params.get('From');
  if (resource === 'Messages') {
    if (!from && !params.get('MessagingServiceSid')) return fail(400, 21603, "A 'From' phone number is required.");
    if (!params.get('Body') && !params.get('MediaUrl') && !params.get('ContentSid')) return fail(400, 21602, 'Message body is required.');
  } else {
    if (!from) return fail(400, 21213, 'Caller phone number is required');
    if (!params.get('Twiml') && !params.get('Url') && !params.get('ApplicationSid')) {
      return fail(400, 21205, 'Url parameter is required.');
    }
  }

  const token = headers['i-twilio-idempotency-token'];
  const key = token ? `${resource}:${token}` : null;
  const existing = key ? account.idempotent.get(key) : undefined;
  if (existing) {
    record.sid = (existing as { sid: string }).sid;
    return answer(201, existing);
  }

  const now = new Date().toUTCString();
  const newSid = sid(resource === 'Messages' ? 'SM' : 'CA');
  const created =
    resource === 'Messages'
      ? {
          sid: newSid,
          account_sid: accountSid,
          api_version: '2010-04-01',
          body: params.get('Body'),
          date_created: now,
          date_updated: now,
          direction: 'outbound-api',
          from: from,
          messaging_service_sid: params.get('MessagingServiceSid'),
          num_segments: '1',
          status: 'queued',
          to,
          uri: `/2010-04-01/Accounts/${accountSid}/Messages/${newSid}.json`,
        }
      : {
          sid: newSid,
          account_sid: accountSid,
          api_version: '2010-04-01',
          date_created: now,
          date_updated: now,
          direction: 'outbound-api',
          from,
          status: 'queued',
          to,
          uri: `/2010-04-01/Accounts/${accountSid}/Calls/${newSid}.json`,
        };
  if (key) account.idempotent.set(key, created);
  record.sid = newSid;
  return answer(201, created);
}

export async function startTwilioPeer(project: TestProject) {
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) json(res, 500, { error: String(err) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  project.provide('twilioPeer', { baseUrl: `http://127.0.0.1:${port}` });
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}
