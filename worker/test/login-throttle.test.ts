import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { LOGIN_LIMITS } from '../src/domains/auth/login-throttle';
import { loginUser } from '../src/domains/auth/login-user';
import { createServiceContext } from '../src/env';
import { AppError } from '../src/lib/errors';
import { api, signedInUser } from './helpers/api';

const fromAddress = (ip: string) => ({ 'cf-connecting-ip': ip });

describe('failed-login throttling', () => {
  it('answers 429 with Retry-After after 5 failures for one email, even with the right password', async () => {
    const user = await signedInUser();
    for (let i = 0; i < LOGIN_LIMITS.email.max; i++) {
      const res = await api('POST', '/api/auth/login', { json: { email: user.email, password: 'wrong password!' }, headers: fromAddress('198.51.100.1') });
      expect(res.status).toBe(401);
    }
    const blocked = await api('POST', '/api/auth/login', { json: { email: user.email, password: user.password }, headers: fromAddress('198.51.100.2') });
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(blocked.data.detail).toMatch(/Too many failed sign-in attempts/);
  });

  it('lets the real owner back in once the window has passed', async () => {
    const user = await signedInUser();
    const ctx = createServiceContext(env);
    for (let i = 0; i < LOGIN_LIMITS.email.max; i++) {
      await expect(loginUser(ctx, { email: user.email, password: 'wrong password!' }, '198.51.100.3')).rejects.toThrow(AppError);
    }
    await expect(loginUser(ctx, { email: user.email, password: user.password }, '198.51.100.3')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    const later = createServiceContext(env, () => new Date(Date.now() + LOGIN_LIMITS.email.windowMs + 1000));
    await expect(loginUser(later, { email: user.email, password: user.password }, '198.51.100.3')).resolves.toMatchObject({ token_type: 'bearer' });
  });

  it('throttles one client address spraying many emails', async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < LOGIN_LIMITS.address.max; i++) {
      await api('POST', '/api/auth/login', { json: { email: `spray${i}@example.com`, password: 'wrong password!' }, headers: fromAddress(ip) });
    }
    const res = await api('POST', '/api/auth/login', { json: { email: 'another@example.com', password: 'wrong password!' }, headers: fromAddress(ip) });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
    const elsewhere = await api('POST', '/api/auth/login', { json: { email: 'another@example.com', password: 'wrong password!' }, headers: fromAddress('203.0.113.78') });
    expect(elsewhere.status).toBe(401);
    // Each failed login costs a full scrypt hash (~0.1 s) by design: on a busy 2-core machine the default 5 s is too tight.
  }, 30_000);

  it('keeps its counters in D1, shared by every isolate', async () => {
    await api('POST', '/api/auth/login', { json: { email: 'counted@example.com', password: 'wrong password!' }, headers: fromAddress('192.0.2.9') });
    const row = await env.DB.prepare("SELECT count FROM rate_limits WHERE key = 'login:ip:192.0.2.9'").first<{ count: number }>();
    expect(row?.count).toBe(1);
  });
});
