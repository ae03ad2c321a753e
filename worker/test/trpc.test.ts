import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createServiceContext } from '../src/wiring/service-context';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { createCallerFactory, publicProcedure, router } from '../src/trpc/init';
import { appRouter } from '../src/wiring/trpc-router';
import { api, newAccount, signedInUser } from './helpers/api';

const createCaller = createCallerFactory(appRouter);
const anonymous = () =>
  createCaller({ services: createServiceContext(env), principal: null, clientAddress: '192.0.2.1', requestId: 'test', resHeaders: new Headers() });

describe('tRPC procedures call the same services as REST', () => {
  it('registers and logs in through the caller', async () => {
    const account = newAccount();
    const me = await anonymous().auth.register(account);
    const session = await anonymous().auth.login({ email: account.email, password: account.password });
    expect(session.token_type).toBe('bearer');
    const rest = await api('GET', '/api/auth/me', { token: session.access_token });
    expect(rest.data.id).toBe(me.id);
  });

  it('maps a service AppError to the tRPC code with the same detail', async () => {
    const account = newAccount();
    await anonymous().auth.register(account);
    await expect(anonymous().auth.register(account)).rejects.toMatchObject({ code: 'CONFLICT', message: 'An account with this email already exists' });
  });

  it('answers over HTTP at /api/trpc with the detail in error.data', async () => {
    const res = await api('POST', '/api/trpc/auth.login', { json: { email: 'nobody@example.com', password: 'not the password' } });
    expect(res.status).toBe(401);
    expect(res.data.error.data.detail).toBe('Incorrect email or password');
    expect(res.data.error.data.stack).toBeUndefined();
  });

  it('reports input validation as 422 with field issues, like REST', async () => {
    const res = await api('POST', '/api/trpc/auth.register', { json: { email: 'bad' } });
    expect(res.status).toBe(422);
    expect(res.data.error.data.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ['body', 'email'] })]));
  });

  it('refuses a JSON body over 1 MiB with 413 and creates nothing', async () => {
    const account = newAccount();
    const res = await api('POST', '/api/trpc/auth.register', { json: { ...account, pad: 'x'.repeat(1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.data.detail).toMatch(/larger than 1048576 bytes/);
    const row = await env.DB.prepare('SELECT count(*) AS n FROM users WHERE email = ?').bind(account.email).first<{ n: number }>();
    expect(row?.n).toBe(0);
  });

  it('refuses auth.me without a session', async () => {
    const res = await api('GET', '/api/trpc/auth.me');
    expect(res.status).toBe(401);
    expect(res.data.error.data.detail).toBe('Not authenticated');
  });
});

describe('the tRPC error path matches REST', () => {
  it('answers an unexpected error as "Internal error" with the request id, and nothing of the error itself', async () => {
    const boomRouter = router({
      boom: publicProcedure.query(() => {
        throw new Error('database password is hunter2');
      }),
    });
    const res = await fetchRequestHandler({
      endpoint: '/api/trpc',
      req: new Request('http://afterword.test/api/trpc/boom'),
      router: boomRouter,
      createContext: () => ({
        services: createServiceContext(env),
        principal: null,
        clientAddress: 'local',
        requestId: 'req-walk-1',
        resHeaders: new Headers(),
      }),
    });
    const body = await res.text();
    expect(res.status).toBe(500);
    expect(JSON.parse(body).error.data).toMatchObject({ detail: 'Internal error', request_id: 'req-walk-1' });
    expect(body).not.toContain('hunter2');
  });

  it('roots validation issues where REST does: a mutation at body, a query at query', async () => {
    const mutation = await api('POST', '/api/trpc/auth.login', { json: { email: 'not an email', password: 'x' } });
    expect(mutation.data.error.data.detail[0].loc[0]).toBe('body');
    const owner = await signedInUser();
    const query = await api('GET', `/api/trpc/activity.recent?input=${encodeURIComponent(JSON.stringify({ limit: 0 }))}`, { token: owner.token });
    expect(query.data.error.data.detail[0].loc).toEqual(['query', 'limit']);
  });
});
