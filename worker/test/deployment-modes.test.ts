import { createExecutionContext, env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { environmentProblems } from '../src/env-check';
import worker from '../src/index';

/**
 * Production is the default and refuses to serve until configured, saying what is missing; development
 * answers only on this machine (src/env-check.ts).
 */
type E = typeof env;
const fetchWith = async (overrides: Record<string, string | undefined>, url = 'http://127.0.0.1:8787/api/health') => {
  const res = await worker.fetch(new Request(url), { ...env, ...overrides } as E, createExecutionContext());
  return { status: res.status, body: (await res.json()) as { detail?: string } };
};

const CONFIGURED = {
  APP_ENV: 'production',
  PUBLIC_ORIGIN: 'https://afterword.example',
  CANARY_TOKEN_SECRET: 'a long random canary token secret for the test',
  WEBHOOK_SECRET_KEY: 'a long random webhook key for the test',
  EMAIL_TRANSPORT: 'smtp',
};

describe('a production Worker', () => {
  it('refuses every request until its secrets and settings are set, naming each, with no stack trace', async () => {
    const { status, body } = await fetchWith({ APP_ENV: 'production', CANARY_TOKEN_SECRET: undefined, WEBHOOK_SECRET_KEY: undefined });
    expect(status).toBe(503);
    for (const missing of ['CANARY_TOKEN_SECRET', 'WEBHOOK_SECRET_KEY', 'EMAIL_TRANSPORT', 'PUBLIC_ORIGIN on https']) expect(body.detail).toContain(missing);
    expect(body.detail).not.toMatch(/\bat \w+ \(/);
  });

  it('serves once configured, on any host', async () => {
    expect(environmentProblems(CONFIGURED)).toEqual([]);
    expect((await fetchWith(CONFIGURED, 'https://afterword.example/api/health')).status).toBe(200);
  });

  it('refuses a setting that is present but malformed, in either mode', async () => {
    expect(environmentProblems({ ...CONFIGURED, EMAIL_TRANSPORT: 'smtpp' })).toEqual([
      expect.stringContaining('EMAIL_TRANSPORT'),
      expect.stringContaining('EMAIL_TRANSPORT = "smtp" or "api"'),
    ]);
    const dev = await fetchWith({ APP_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_URLS: 'yes' });
    expect(dev.status).toBe(503);
    expect(dev.body.detail).toContain('WEBHOOK_ALLOW_PRIVATE_URLS');
    expect(environmentProblems({ ...CONFIGURED, APP_ENV: 'staging' })[0]).toContain('APP_ENV must be "production" or "development"');
  });
});

describe('a development Worker', () => {
  it('answers on loopback', async () => {
    for (const url of ['http://127.0.0.1:8787/api/health', 'http://localhost:8787/api/health', 'http://[::1]:8787/api/health']) {
      expect((await fetchWith({ APP_ENV: 'development' }, url)).status, url).toBe(200);
    }
  });

  it('refuses a request addressed to any other host: it is not a service for others', async () => {
    const { status, body } = await fetchWith({ APP_ENV: 'development', DEV_ALLOWED_HOSTS: '' }, 'https://afterword.example/api/health');
    expect(status).toBe(403);
    expect(body.detail).toContain('development mode');
  });
});
