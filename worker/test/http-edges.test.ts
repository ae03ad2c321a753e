import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { HSTS } from '../src/middleware/security-headers';
import { api, signedInUser } from './helpers/api';

describe('GET /api/activity?limit', () => {
  it.each(['1.5', '0', '-1', '1e9', '101', 'ten', ''])('refuses limit=%s with 422 and a detail (never a 500, never clamped)', async (limit) => {
    const owner = await signedInUser();
    const res = await api('GET', `/api/activity?limit=${limit}`, { token: owner.token });
    expect(res.status).toBe(422);
    expect(res.data.detail[0]).toMatchObject({ loc: ['query', 'limit'] });
  });

  it('accepts 1…100 and defaults to 20', async () => {
    const owner = await signedInUser();
    for (const q of ['', '?limit=1', '?limit=100']) expect((await api('GET', `/api/activity${q}`, { token: owner.token })).status).toBe(200);
  });
});

describe('JSON errors at the edges of /api', () => {
  it('answers a tRPC call whose body is labelled text/plain with 415 {detail} as JSON', async () => {
    const res = await api('POST', '/api/trpc/auth.login', { body: '{"email":"a@b.co","password":"x"}', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.data).toEqual({ detail: 'Send the body as JSON (Content-Type: application/json)' });
  });
});

describe('Strict-Transport-Security', () => {
  it('is sent on API answers in production only (a local server is plain http)', async () => {
    const production = { ...env, APP_ENV: 'production' } as unknown as typeof env;
    expect((await createApp().request('/api/health', {}, production)).headers.get('strict-transport-security')).toBe(HSTS);
    expect((await createApp().request('/api/health', {}, env)).headers.get('strict-transport-security')).toBeNull();
  });
});
