import type { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { deriveCanaryToken, legacyCanaryToken, readCanaryToken } from '../src/domains/canary/canary-token';

/**
 * A canary's token against a known answer: HMAC-SHA256(secret, `canary:<id>:<version>`), computed apart from this
 * code (Python's hmac module). Tokens owners copied into their scripts must keep working whatever the code that makes
 * them: a change of these bytes would stop every one of them.
 */
const SECRET = { APP_ENV: 'development', CANARY_TOKEN_SECRET: 'known-answer-secret' } as unknown as typeof env;
const ID = '0b7c3f8e-1d2a-4c5b-9e6f-7a8b9c0d1e2f';

describe("a canary's token, by a known answer", () => {
  it('before v2 was the MAC alone', async () => {
    expect(await legacyCanaryToken(SECRET, ID, 3)).toBe('W45wOs83LTriYzKZVWaaQDTDuK0GgVh_ZZrPdl69NJI');
  });

  it('in v2 carries the id and the version in the clear before the same MAC, and reads back', async () => {
    const token = await deriveCanaryToken(SECRET, ID, 3);
    expect(token).toBe('C3w_jh0qTFueb3qLnA0eLwAAAANbjnA6zzctOuJjMplVZppANMO4rQaBWH9lms92Xr00kg');
    expect(await readCanaryToken(SECRET, token)).toEqual({ form: 'v2', canaryId: ID, version: 3 });
  });
});
