import type { Context, Hono } from 'hono';
import { multipartFields, readMultipart } from '../lib/multipart';
import { notFound } from '../lib/errors';
import { readJsonBody } from '../lib/json-body';
import { parseOrThrow } from '../lib/validation';
import type { AppEnv, Principal } from '../middleware/context';
import { handleNotFound } from '../middleware/errors';
import type { AnyOperation, OperationContext } from './operation';
import { principalFor } from './principal';

/**
 * Mounts every operation that has a REST path on the app: auth from `access`, path parameters (a
 * malformed one is the operation's 404), query and body validated by their schemas (422 with `loc`),
 * the service call, and the answer (`status`, JSON; a Response is passed through). Routes are
 * registered most specific first, so `/api/message/pending` wins over `/api/message/{id}`.
 */
export function mountOperations(app: Hono<AppEnv>, operations: readonly AnyOperation[]) {
  const rest = operations.filter((op): op is AnyOperation & { path: string } => op.path !== null);
  const literals = (path: string) => path.split('/').filter((s) => s && !s.startsWith('{')).length;
  for (const op of [...rest].sort((a, b) => literals(b.path) - literals(a.path))) {
    app.on(op.method.toUpperCase(), op.path.replace(/\{([^}]+)\}/g, ':$1'), (c) => handle(c, op));
  }
}

async function handle(c: Context<AppEnv>, op: AnyOperation) {
  if (op.exists && !op.exists(c.get('services').env)) return handleNotFound(c);
  const principal = principalFor(op.access, c.get('principal'));
  const input: Record<string, unknown> = {};
  if (op.input.params) {
    const parsed = op.input.params.safeParse(c.req.param());
    if (!parsed.success) throw op.notFound?.() ?? notFound();
    Object.assign(input, parsed.data);
  }
  if (op.input.query) Object.assign(input, parseOrThrow(op.input.query, c.req.query(), 'query'));
  if (op.input.body) {
    const body = parseOrThrow(op.input.body, await readJsonBody(c, op.input.maxBytes), 'body');
    if (op.input.params || op.input.query) Object.assign(input, body);
    else return answer(c, op, await op.run(context(c, principal), body));
  }
  if (op.input.multipart) {
    const { schema, maxBytes, read } = op.input.multipart;
    Object.assign(input, await read(await readMultipart(c, maxBytes, multipartFields(schema as Parameters<typeof multipartFields>[0]))));
  }
  return answer(c, op, await op.run(context(c, principal), input));
}

const context = (c: Context<AppEnv>, principal: Principal | null): OperationContext => ({
  services: c.get('services'),
  principal: principal as Principal,
  clientAddress: c.get('clientAddress'),
  requestId: c.get('requestId'),
  range: c.req.header('range') ?? null,
  header: (name) => c.req.header(name) ?? null,
});

function answer(c: Context<AppEnv>, op: AnyOperation, result: unknown) {
  if (result instanceof Response) return result;
  return c.json(result as object, op.status ?? 200);
}
