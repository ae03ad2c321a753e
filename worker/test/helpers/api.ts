import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { type TRegisterInput, ZRegisterInput } from '../../src/contracts/auth';
import { insertUser } from '../../src/domains/auth/register-user';
import { createSession } from '../../src/domains/auth/sessions';
import { createServiceContext } from '../../src/wiring/service-context';
import { hashPassword } from '../../src/lib/kdf';
import { readCanaryToken } from '../../src/domains/canary/canary-token';
import { settleCanaries } from '../../src/domains/canary/canary-timer';
import { buildOpenApiDocument } from '../../src/openapi/document';
import { responseContract } from '../../../tests/support/response-contract.mjs';

/**
 * Every response of a documented operation must be one it declares (tests/support/response-contract.mjs):
 * an undeclared status, content type or body fails the test that met it.
 */
let contract: ReturnType<typeof responseContract> | undefined;
function checkAgainstDocument(method: string, path: string, res: Response, text: string) {
  if (!path.startsWith('/api/') || path.startsWith('/api/trpc')) return;
  contract ??= responseContract(buildOpenApiDocument());
  const problems = contract({ method, path, status: res.status, contentType: res.headers.get('content-type'), text });
  if (problems.length) throw new Error(`The response breaks /api/openapi.json:\n${problems.join('\n')}`);
}

/**
 * A token (or check-in link) check-in is answered by the canary's Durable Object; D1 follows through the PROJECTIONS queue
 * (docs/decisions/canary-engine.md). A test that reads its own check-in back from D1 at once waits for
 * that projection, as the engine itself does before any decision (`settle`). The lag itself is tested
 * in canary-projection.test.ts, which calls the domain directly.
 */
async function settleTokenCheckIn(path: string, body: unknown, res: Response, data: any) {
  if (res.status !== 200 || !data?.last_check_in) return;
  if (path.startsWith('/api/check-in-links/')) {
    await settleCanaries(
      env,
      (data.canaries ?? []).map((c: { id: string }) => c.id),
      Date.parse(data.last_check_in),
    );
    return;
  }
  const token = path.match(/^\/api\/ping\/([^/?]+)/)?.[1] ?? (path === '/api/canary/checkin' ? (body as { token?: string } | undefined)?.token : undefined);
  if (!token) return;
  const presented = await readCanaryToken(env, decodeURIComponent(token));
  const ids = presented.form === 'v2' ? [presented.canaryId] : (data.canaries ?? []).map((c: { id: string }) => c.id);
  await settleCanaries(env, ids, Date.parse(data.last_check_in));
}

/** Calls the Worker's real fetch handler, as a browser or curl would. */
export async function api(method: string, path: string, opts: { json?: unknown; body?: BodyInit; token?: string; headers?: HeadersInit } = {}) {
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set('authorization', `Bearer ${opts.token}`);
  let body = opts.body;
  if (opts.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(opts.json);
  }
  const res = await exports.default.fetch(new Request(`http://afterword.test${path}`, { method, headers, body }));
  const text = await res.text();
  checkAgainstDocument(method, path, res, text);
  let data: any = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  await settleTokenCheckIn(path, opts.json, res, data);
  return { status: res.status, headers: res.headers, data, text };
}

let counter = 0;
/** A fresh, valid registration (each call a new email). */
export function newAccount(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    email: `person${counter}-${crypto.randomUUID().slice(0, 8)}@example.com`,
    password: 'correct horse battery staple',
    data_policy_region: 'INTL-General' as const,
    ...overrides,
  } as TRegisterInput & { email: string; password: string };
}

/**
 * The production scrypt hash of each password the file's test users have, computed once per test file:
 * a user who signs in with `password` later (or changes it) is verified against a real hash, while the
 * file pays for one hash, not two per user.
 */
const passwordHashes = new Map<string, Promise<string>>();
const passwordHashOf = (password: string) => {
  const known = passwordHashes.get(password);
  if (known) return known;
  const hash = hashPassword(password);
  passwordHashes.set(password, hash);
  return hash;
};

/**
 * A registered, signed-in account; returns the account, its token and its id. The account is written by
 * the registration's own insert and the token is a session opened by the login's own `createSession`;
 * only the password hashing is shared, so a user costs milliseconds. Registration and sign-in over HTTP are
 * tested in auth.test.ts, login-throttle.test.ts and password-*.test.ts.
 */
export async function signedInUser(overrides: Record<string, unknown> = {}) {
  const account = newAccount(overrides);
  const input = ZRegisterInput.parse(account);
  const services = createServiceContext(env);
  const me = await insertUser(services, input, await passwordHashOf(input.password));
  const session = await createSession(services, me.id, 'password');
  return { ...account, id: me.id as string, token: session.access_token };
}
