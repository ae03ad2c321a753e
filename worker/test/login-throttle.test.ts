import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { TRPC_MAX_BATCH } from '../src/contracts/transport';
import { LOGIN_LIMITS } from '../src/domains/auth/login-throttle';
import { loginUser } from '../src/domains/auth/login-user';
import { createServiceContext } from '../src/wiring/service-context';
import { AppError } from '../src/lib/errors';
import { clientAddress, ipv6Prefix64, LOCAL_CLIENT } from '../src/lib/client-address';
import { api, signedInUser } from './helpers/api';

const fromAddress = (ip: string) => ({ 'cf-connecting-ip': ip });
const login = (email: string, password: string, ip: string) => api('POST', '/api/auth/login', { json: { email, password }, headers: fromAddress(ip) });
const statuses = (results: { status: number }[]) => {
  const counts: Record<number, number> = {};
  for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
};

describe('failed-login throttling', () => {
  it('answers 429 with Retry-After after 5 failures from one address, even for the right password from there', async () => {
    const user = await signedInUser();
    for (let i = 0; i < LOGIN_LIMITS.pair.max; i++) expect((await login(user.email, 'wrong password!', '198.51.100.1')).status).toBe(401);
    const blocked = await login(user.email, user.password, '198.51.100.1');
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(blocked.data.detail).toMatch(/Too many failed sign-in attempts/);
  });

  it('does not hand out lockouts: five failures from an attacker leave the owner free to sign in from elsewhere', async () => {
    const user = await signedInUser();
    for (let i = 0; i < LOGIN_LIMITS.pair.max; i++) await login(user.email, 'wrong password!', '198.51.100.10');
    expect((await login(user.email, user.password, '198.51.100.11')).status).toBe(200);
  });

  it('lets the owner sign in from their own address while others have used up the account’s ceiling', async () => {
    const user = await signedInUser();
    expect((await login(user.email, user.password, '192.0.2.50')).status).toBe(200);
    // A distributed attack: each guess from a new address, until the account's ceiling is reached.
    for (let i = 0; i < LOGIN_LIMITS.email.max; i++) await login(user.email, `wrong guess ${i}!`, `10.9.${Math.floor(i / 250)}.${i % 250}`);
    expect((await login(user.email, 'one more guess', '10.99.0.1')).status).toBe(429);
    // The right password from a new address waits too…
    expect((await login(user.email, user.password, '10.99.0.2')).status).toBe(429);
    // …but the owner's own address (signed in from before) is held to its own pair limit only.
    expect((await login(user.email, user.password, '192.0.2.50')).status).toBe(200);
  }, 60_000);

  it('lets the real owner back in once the window has passed', async () => {
    const user = await signedInUser();
    const ctx = createServiceContext(env);
    for (let i = 0; i < LOGIN_LIMITS.pair.max; i++) {
      await expect(loginUser(ctx, { email: user.email, password: 'wrong password!' }, '198.51.100.3')).rejects.toThrow(AppError);
    }
    await expect(loginUser(ctx, { email: user.email, password: user.password }, '198.51.100.3')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    const later = createServiceContext(env, () => new Date(Date.now() + LOGIN_LIMITS.pair.windowMs + 1000));
    await expect(loginUser(later, { email: user.email, password: user.password }, '198.51.100.3')).resolves.toMatchObject({ token_type: 'bearer' });
  });

  it('throttles one client address spraying many emails, but not an account that signed in from there before', async () => {
    const ip = '203.0.113.77';
    const regular = await signedInUser();
    expect((await login(regular.email, regular.password, ip)).status).toBe(200);
    for (let i = 0; i < LOGIN_LIMITS.address.max; i++) await login(`spray${i}@example.com`, 'wrong password!', ip);
    const res = await login('another@example.com', 'wrong password!', ip);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect((await login('another@example.com', 'wrong password!', '203.0.113.78')).status).toBe(401);
    expect((await login(regular.email, regular.password, ip)).status).toBe(200);
    // Each failed login costs a full scrypt hash (~0.1 s) by design: on a busy 2-core machine the default 5 s is too tight.
  }, 30_000);

  it('keeps its counters in D1, shared by every isolate', async () => {
    await login('counted@example.com', 'wrong password!', '192.0.2.9');
    const row = await env.DB.prepare("SELECT count FROM rate_limits WHERE key = 'login:ip:192.0.2.9'").first<{ count: number }>();
    expect(row?.count).toBe(1);
  });
});

describe('parallel bursts verify no more passwords than the limits', () => {
  // A 401 means a password was verified (and was wrong); a 429 means it was refused before verifying.
  it('100 parallel wrong passwords for one email from one address: at most 5 verified', async () => {
    const user = await signedInUser();
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => login(user.email, `parallel guess ${i}`, '198.51.100.100')));
    const n = statuses(results);
    expect(n[401] ?? 0).toBeLessThanOrEqual(LOGIN_LIMITS.pair.max);
    expect((n[401] ?? 0) + (n[429] ?? 0)).toBe(100);
  }, 120_000);

  it('100 parallel wrong passwords for one email from 100 addresses: at most the account ceiling verified', async () => {
    const user = await signedInUser();
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => login(user.email, `parallel guess ${i}`, `10.20.0.${i + 1}`)));
    expect(statuses(results)[401] ?? 0).toBeLessThanOrEqual(LOGIN_LIMITS.email.max);
  }, 120_000);

  it('29 parallel wrong passwords, then the right one from the same address: no token', async () => {
    const user = await signedInUser();
    const wrong = await Promise.all(Array.from({ length: 29 }, (_, i) => login(user.email, `parallel guess ${i}`, '198.51.100.101')));
    expect(statuses(wrong)[401] ?? 0).toBeLessThanOrEqual(LOGIN_LIMITS.pair.max);
    const right = await login(user.email, user.password, '198.51.100.101');
    expect(right.status).toBe(429);
    expect(right.data.access_token).toBeUndefined();
  }, 60_000);

  it('40 parallel sign-ins with the right passwords from one shared address (an office) all succeed: only failures count', async () => {
    const colleagues = await Promise.all(Array.from({ length: 40 }, () => signedInUser()));
    const results = await Promise.all(colleagues.map((c) => login(c.email, c.password, '198.51.100.105')));
    expect(statuses(results)).toEqual({ 200: 40 });
    // Their slots were given back: the address holds no failure.
    const row = await env.DB.prepare("SELECT count, failed FROM rate_limits WHERE key = 'login:ip:198.51.100.105'").first<{ count: number; failed: number }>();
    expect(row).toEqual({ count: 0, failed: 0 });
  }, 120_000);

  it('60 parallel failures from one address over many emails: at most 30 verified', async () => {
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => login(`burst${i}@example.com`, 'wrong password!', '198.51.100.102')));
    expect(statuses(results)[401] ?? 0).toBeLessThanOrEqual(LOGIN_LIMITS.address.max);
  }, 120_000);

  it(`refuses a tRPC batch of more than ${TRPC_MAX_BATCH} calls before any of them runs`, async () => {
    const user = await signedInUser();
    const calls = 30;
    const path = `/api/trpc/${Array(calls).fill('auth.login').join(',')}?batch=1`;
    const input = Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, { email: user.email, password: `batched guess ${i}` }]));
    const res = await api('POST', path, { json: input, headers: fromAddress('198.51.100.103') });
    expect(res.status).toBe(400);
    expect(res.data.detail).toBe(`A tRPC batch may hold at most ${TRPC_MAX_BATCH} calls; this one has 30`);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM rate_limits WHERE key = 'login:ip:198.51.100.103'").first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it('counts each login inside an allowed batch: at most 5 of 10 verified', async () => {
    const user = await signedInUser();
    const path = `/api/trpc/${Array(TRPC_MAX_BATCH).fill('auth.login').join(',')}?batch=1`;
    const input = Object.fromEntries(Array.from({ length: TRPC_MAX_BATCH }, (_, i) => [i, { email: user.email, password: `batched guess ${i}` }]));
    const res = await api('POST', path, { json: input, headers: fromAddress('198.51.100.104') });
    const codes = (res.data as { error?: { data: { httpStatus: number } } }[]).map((r) => r.error?.data.httpStatus);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(LOGIN_LIMITS.pair.max);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(TRPC_MAX_BATCH - LOGIN_LIMITS.pair.max);
  }, 30_000);
});

describe('the client address', () => {
  it('ignores a client-sent CF-Connecting-IP on a local server: every request is the one local client', async () => {
    const local = { ...env, TRUST_CF_CONNECTING_IP: undefined } as unknown as typeof env;
    const email = `local-${crypto.randomUUID()}@example.com`;
    await createApp().request(
      '/api/auth/login',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...fromAddress('203.0.113.200') },
        body: JSON.stringify({ email, password: 'wrong password!' }),
      },
      local,
    );
    expect(await env.DB.prepare("SELECT count(*) AS n FROM rate_limits WHERE key = 'login:ip:203.0.113.200'").first('n')).toBe(0);
    expect(clientAddress({ APP_ENV: 'development' } as never, '203.0.113.200')).toBe(LOCAL_CLIENT);
  });

  it('trusts CF-Connecting-IP in production, where Cloudflare overwrites it, and counts an IPv6 /64 as one address', () => {
    expect(clientAddress({ APP_ENV: 'production' } as never, '203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress({ APP_ENV: 'production' } as never, '2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(ipv6Prefix64('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(ipv6Prefix64('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(ipv6Prefix64('::1')).toBe('0:0:0:0::/64');
  });
});
