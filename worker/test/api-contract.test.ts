import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import type { AppEnv } from '../src/middleware/context';
import { handleError } from '../src/middleware/errors';
import { requestContext } from '../src/middleware/request-context';
import { env } from 'cloudflare:test';
import { api, newAccount } from './helpers/api';

describe('the API error contract (docs/decisions/api-errors.md)', () => {
  it('answers malformed JSON with 400 and a detail', async () => {
    const res = await api('POST', '/api/auth/register', { body: '{"email": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ detail: 'Malformed JSON body' });
  });

  it('answers wrong types with 422 and [{loc, msg, type}]', async () => {
    const res = await api('POST', '/api/auth/login', { json: { email: ['a'], password: 12 } });
    expect(res.status).toBe(422);
    expect(res.data.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'email'], msg: expect.any(String), type: 'invalid_type' },
        { loc: ['body', 'password'], msg: expect.any(String), type: 'invalid_type' },
      ]),
    );
  });

  it('answers a JSON array body with 422, not 500', async () => {
    const res = await api('POST', '/api/auth/login', { json: [1, 2] });
    expect(res.status).toBe(422);
  });

  it('refuses a declared body over 1 MiB with 413 before reading it', async () => {
    const big = JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1024 * 1024) });
    const res = await api('POST', '/api/auth/login', { body: big, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.data.detail).toMatch(/larger than 1048576 bytes/);
  });

  it('refuses a streamed body over 1 MiB without Content-Length with 413', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await api('POST', '/api/auth/login', { body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
  });

  it('refuses a declared non-JSON body with 415', async () => {
    const res = await api('POST', '/api/auth/login', { body: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.data.detail).toMatch(/JSON/);
  });

  it('answers an unknown /api path with a JSON 404', async () => {
    const res = await api('GET', '/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.data).toEqual({ detail: 'No API route for GET /api/no-such-thing' });
  });

  it('answers an unexpected exception with 500, a request id and no stack', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const app = new Hono<AppEnv>();
    app.use('*', requestContext);
    app.get('/boom', () => {
      throw new Error('database password is hunter2');
    });
    app.onError(handleError);
    const res = await app.request('/boom', {}, env);
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(500);
    expect(body).toEqual({ detail: 'Internal error', request_id: res.headers.get('x-request-id') });
    expect(JSON.stringify(body)).not.toContain('hunter2');
    // The stack goes to the log only, tied to the same request id.
    expect(logged).toHaveBeenCalledOnce();
    const line = JSON.parse(String(logged.mock.calls[0]![0]));
    expect(line).toMatchObject({ level: 'error', request_id: body.request_id, error: 'database password is hunter2' });
    expect(line.stack).toContain('Error: database password is hunter2');
    logged.mockRestore();
  });

  it('never includes a stack trace in any error body', async () => {
    const bodies = await Promise.all([
      api('POST', '/api/auth/register', { body: '{', headers: { 'content-type': 'application/json' } }),
      api('POST', '/api/auth/register', { json: newAccount({ password: 1 }) }),
      api('GET', '/api/auth/me', { token: 'nope' }),
      api('GET', '/api/nothing-here'),
      api('POST', '/api/trpc/auth.login', { json: { email: 'x' } }),
    ]);
    for (const res of bodies) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.text).not.toMatch(/\bat \w+.*\(.*:\d+:\d+\)|\.ts:\d+/);
    }
  });

  it('sets security headers on every API response', async () => {
    for (const res of [await api('GET', '/api/health'), await api('GET', '/api/missing'), await api('POST', '/api/auth/login', { json: {} })]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
