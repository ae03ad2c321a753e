import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { sweepExpired } from '../src/cron/sweep-expired';
import { createServiceContext } from '../src/wiring/service-context';
import { api, signedInUser } from './helpers/api';

describe('the every-minute sweep', () => {
  it('deletes sessions past their expiry and ended throttle windows, and keeps live ones', async () => {
    const live = await signedInUser();
    const stale = await signedInUser();
    await env.DB.prepare('UPDATE sessions SET expires_at = ? WHERE user_id = ?')
      .bind(Date.now() - 1, stale.id)
      .run();
    await env.DB.prepare("INSERT INTO rate_limits (key, count, window_ends_at) VALUES ('login:ip:old', 3, ?)")
      .bind(Date.now() - 1)
      .run();

    const swept = await sweepExpired(createServiceContext(env));
    expect(swept.sessions).toBeGreaterThanOrEqual(1);
    expect(swept.rateLimits).toBeGreaterThanOrEqual(1);
    expect((await api('GET', '/api/auth/me', { token: live.token })).status).toBe(200);
    const left = await env.DB.prepare('SELECT count(*) AS n FROM sessions WHERE user_id = ?').bind(stale.id).first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});
