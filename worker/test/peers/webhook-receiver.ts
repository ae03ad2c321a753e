import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { TestProject } from 'vitest/node';

/**
 * A webhook consumer on 127.0.0.1 that verifies every request with the published `standardwebhooks`
 * package (the library a real integrator would use), and answers as each test tells it, per path:
 *
 * - `POST /hook/<name>`: a delivery. Recorded with its headers, raw body and two checks: `verified`
 *   (`new Webhook(secret).verify(body, headers)`, the library's full check, which includes the 5-minute
 *   timestamp tolerance against the real clock) and `signatureMatches` (the library's own `sign` for the
 *   request's id, timestamp and body equals the `v1` signature — for tests on an injected clock). Answers
 *   the next step of the path's script (the last step repeats; without a script, 200).
 * - `PUT /__script/<name>` `{secret?, steps: [{status, headers?, body?} | {hang: true}]}`: sets the script
 *   and the secret to verify with; clears the path's recordings.
 * - `GET /__received/<name>`: what the path received, oldest first.
 * - `POST /__verify` `{secret, headers, body}`: runs `Webhook.verify` on what the test hands it (a
 *   tampered body, say) → `{ok, error?}`.
 *
 * A `hang` step never answers (the connection is closed at teardown), for the sender's timeout. A
 * `bodyBytes` step streams that many bytes (respecting backpressure) and records how many the sender
 * took (`bodyWritten`, `bodyComplete`), for the response-size cap.
 */
export interface WebhookReceiverInfo {
  base: string;
}

declare module 'vitest' {
  interface ProvidedContext {
    webhookReceiver: WebhookReceiverInfo;
  }
}

export type ReceiverStep = { status: number; headers?: Record<string, string>; body?: string; bodyBytes?: number } | { hang: true };

export interface ReceivedWebhook {
  at: number;
  path: string;
  headers: Record<string, string>;
  body: string;
  verified: boolean;
  verifyError: string | null;
  signatureMatches: boolean;
  answered: number | 'hang';
  /** With `bodyBytes`: how much of the body the sender took before the connection ended, and whether all of it. */
  bodyWritten?: number;
  bodyComplete?: boolean;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function verify(secret: string | undefined, headers: Record<string, string>, body: string): { ok: boolean; error: string | null; matches: boolean } {
  if (!secret) return { ok: false, error: 'no secret scripted for this path', matches: false };
  const wh = new Webhook(secret);
  let matches = false;
  const ts = Number(headers['webhook-timestamp']);
  if (headers['webhook-id'] && Number.isFinite(ts)) {
    const expected = wh.sign(headers['webhook-id'], new Date(ts * 1000), body);
    matches = (headers['webhook-signature'] ?? '').split(' ').includes(expected);
  }
  try {
    wh.verify(body, headers);
    return { ok: true, error: null, matches };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err), matches };
  }
}

async function streamBody(res: ServerResponse, total: number, record: ReceivedWebhook) {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  record.bodyWritten = 0;
  record.bodyComplete = false;
  res.on('finish', () => (record.bodyComplete = true));
  let closed = false;
  const gone = new Promise<void>((resolve) =>
    res.once('close', () => {
      closed = true;
      resolve();
    }),
  );
  while (record.bodyWritten < total && !closed) {
    const ok = res.write(chunk);
    record.bodyWritten += chunk.length;
    if (!ok) await Promise.race([new Promise<void>((resolve) => res.once('drain', resolve)), gone]);
  }
  if (!closed) res.end();
}

export async function startWebhookReceiver(project: TestProject) {
  const scripts = new Map<string, { secret?: string; steps: ReceiverStep[]; next: number }>();
  const received = new Map<string, ReceivedWebhook[]>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((err) => json(res, 500, { error: String(err) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://x');
    const [, area, name] = url.pathname.split('/');
    if (req.method === 'PUT' && area === '__script' && name) {
      const body = JSON.parse(await readBody(req)) as { secret?: string; steps?: ReceiverStep[] };
      scripts.set(name, { secret: body.secret, steps: body.steps ?? [], next: 0 });
      received.set(name, []);
      return json(res, 200, { ok: true });
    }
    if (req.method === 'GET' && area === '__received' && name) return json(res, 200, received.get(name) ?? []);
    if (req.method === 'POST' && url.pathname === '/__verify') {
      const { secret, headers, body } = JSON.parse(await readBody(req)) as { secret: string; headers: Record<string, string>; body: string };
      const r = verify(secret, headers, body);
      return json(res, 200, { ok: r.ok, error: r.error });
    }
    if (area !== 'hook' || !name) return json(res, 404, { error: 'unknown path' });

    const body = await readBody(req);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    const script = scripts.get(name);
    const step: ReceiverStep = script?.steps.length ? script.steps[Math.min(script.next++, script.steps.length - 1)]! : { status: 200 };
    const check = verify(script?.secret, headers, body);
    const list = received.get(name) ?? [];
    received.set(name, list);
    const record: ReceivedWebhook = {
      at: Date.now(),
      path: url.pathname,
      headers,
      body,
      verified: check.ok,
      verifyError: check.error,
      signatureMatches: check.matches,
      answered: 'hang' in step ? 'hang' : step.status,
    };
    list.push(record);
    if ('hang' in step) return; // never answered
    res.writeHead(step.status, { 'content-type': 'text/plain', ...(step.headers ?? {}) });
    if (step.bodyBytes == null) return void res.end(step.body ?? (step.status < 300 ? 'ok' : 'no'));
    await streamBody(res, step.bodyBytes, record);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  project.provide('webhookReceiver', { base: `http://127.0.0.1:${port}` });
  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
