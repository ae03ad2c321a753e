import { afterEach, describe, expect, it, vi } from 'vitest';
import { setToken } from './session';
import { createTrpcClient } from './trpc';

/** A batched tRPC error body, as the worker answers an unauthenticated call. */
function unauthorizedResponse() {
  const body = [{ error: { message: 'Not signed in', code: -32001, data: { code: 'UNAUTHORIZED', httpStatus: 401, detail: 'Not signed in' } } }];
  return new Response(JSON.stringify(body), { status: 401, headers: { 'content-type': 'application/json' } });
}

describe('tRPC client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the stored token as a bearer header and signs out on a 401', async () => {
    const fetchMock = vi.fn(async () => unauthorizedResponse());
    vi.stubGlobal('fetch', fetchMock);
    setToken('tok-9');
    const onUnauthorized = vi.fn();
    await expect(createTrpcClient(onUnauthorized).auth.me.query()).rejects.toThrow('Not signed in');
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer tok-9');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('leaves a failed sign-in to the login form', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => unauthorizedResponse()),
    );
    const onUnauthorized = vi.fn();
    await expect(createTrpcClient(onUnauthorized).auth.login.mutate({ email: 'a@b.co', password: 'x' })).rejects.toThrow();
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});
