import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { sweepExpired } from '../src/cron/sweep-expired';
import { relyingParty } from '../src/domains/passkeys/relying-party';
import { createServiceContext } from '../src/wiring/service-context';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor } from './helpers/canary';
import { SoftAuthenticator } from './helpers/soft-authenticator';

/**
 * Passkeys (docs/decisions/passkeys.md), through the production verifier (@simplewebauthn/server) with an
 * authenticator in software: made, listed and removed by their owner; a sign-in and a check-in each need a
 * fresh challenge answered once by the person's own verified passkey.
 */
const rp = relyingParty(env);
type Persona = Awaited<ReturnType<typeof signedInUser>>;

async function withPasskey(person: Persona, authenticator = new SoftAuthenticator({ origin: rp.origin, rpId: rp.id })) {
  const start = await api('POST', '/api/passkeys/registration-options', { token: person.token });
  expect(start.status).toBe(200);
  const response = await authenticator.create(start.data.options);
  const made = await api('POST', '/api/passkeys', { token: person.token, json: { challenge_id: start.data.challenge_id, response, name: 'Phone' } });
  expect(made.status, made.text).toBe(201);
  return { authenticator, passkey: made.data };
}

async function answer(path: string, authenticator: SoftAuthenticator, token?: string) {
  const start = await api('POST', `${path}/options`, { token });
  expect(start.status, start.text).toBe(200);
  return { challenge_id: start.data.challenge_id, response: await authenticator.get(start.data.options) };
}

describe('passkeys', () => {
  it('the owner makes one: it is listed by name, and only its public key is stored', async () => {
    const owner = await signedInUser();
    const { authenticator, passkey } = await withPasskey(owner);
    expect(passkey).toMatchObject({ id: authenticator.id, name: 'Phone', last_used_at: null });
    expect((await api('GET', '/api/passkeys', { token: owner.token })).data.passkeys).toEqual([passkey]);
    const row = await env.DB.prepare('SELECT public_key, counter FROM passkeys WHERE id = ?').bind(authenticator.id).first<{ public_key: string }>();
    expect(row?.public_key.length).toBeGreaterThan(80);
  });

  it('signs its owner in with no email or password, and the session works', async () => {
    const owner = await signedInUser();
    const { authenticator } = await withPasskey(owner);
    const res = await api('POST', '/api/auth/passkey', { json: await answer('/api/auth/passkey', authenticator) });
    expect(res.status, res.text).toBe(200);
    expect(res.data.token_type).toBe('bearer');
    const me = await api('GET', '/api/auth/me', { token: res.data.access_token });
    expect(me.data.id).toBe(owner.id);
    const listed = await api('GET', '/api/passkeys', { token: owner.token });
    expect(listed.data.passkeys[0].last_used_at).toEqual(expect.any(String));
  });

  it("checks in every canary of its owner, and the activity feed says 'with a passkey'", async () => {
    const owner = await signedInUser();
    await createCanaryFor(owner.token, { interval_seconds: 3600, name: 'Daily' });
    const { authenticator } = await withPasskey(owner);
    const res = await api('POST', '/api/canary/checkin/passkey', {
      token: owner.token,
      json: await answer('/api/canary/checkin/passkey', authenticator, owner.token),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.data.checked_in).toBe(1);
    const activity = await env.DB.prepare("SELECT source, summary FROM activity WHERE user_id = ? AND kind = 'check_in' ORDER BY created_at DESC LIMIT 1")
      .bind(owner.id)
      .first();
    expect(activity).toEqual({ source: 'passkey', summary: 'Checked in with a passkey: "Daily".' });
  });

  it('an answer replayed, or sent twice at once, is taken once', async () => {
    const owner = await signedInUser();
    const { authenticator } = await withPasskey(owner);
    const body = await answer('/api/auth/passkey', authenticator);
    const statuses = (await Promise.all(Array.from({ length: 5 }, () => api('POST', '/api/auth/passkey', { json: body })))).map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 409, 409, 409, 409]);
    const again = await api('POST', '/api/auth/passkey', { json: body });
    expect([again.status, again.data.detail]).toEqual([409, 'This passkey request has expired or was already answered. Please try again.']);
  });

  it("an outsider's passkey does not check in the owner, and the owner's passkey is not the outsider's to remove", async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    const mine = await withPasskey(owner);
    const theirs = await withPasskey(outsider);
    const start = await api('POST', '/api/canary/checkin/passkey/options', { token: owner.token });
    const res = await api('POST', '/api/canary/checkin/passkey', {
      token: owner.token,
      json: { challenge_id: start.data.challenge_id, response: await theirs.authenticator.get(start.data.options) },
    });
    expect([res.status, res.data.detail]).toEqual([401, 'This passkey is not registered with Afterword.']);
    expect((await api('DELETE', `/api/passkeys/${mine.authenticator.id}`, { token: outsider.token })).status).toBe(404);
    expect((await api('DELETE', `/api/passkeys/${mine.authenticator.id}`, { token: owner.token })).status).toBe(200);
    const after = await api('POST', '/api/auth/passkey', { json: await answer('/api/auth/passkey', mine.authenticator) });
    expect(after.status).toBe(401);
  });

  it('refuses an answer from another origin, and one without user verification', async () => {
    const owner = await signedInUser();
    const { authenticator } = await withPasskey(owner);
    const phishing = Object.assign(Object.create(Object.getPrototypeOf(authenticator)), authenticator, {
      opts: { origin: 'https://afterword.example.evil', rpId: rp.id },
    }) as SoftAuthenticator;
    expect((await api('POST', '/api/auth/passkey', { json: await answer('/api/auth/passkey', phishing) })).status).toBe(401);
    const unverified = await signedInUser();
    const start = await api('POST', '/api/passkeys/registration-options', { token: unverified.token });
    const response = await new SoftAuthenticator({ origin: rp.origin, rpId: rp.id, userVerified: false }).create(start.data.options);
    const made = await api('POST', '/api/passkeys', { token: unverified.token, json: { challenge_id: start.data.challenge_id, response, name: 'Key' } });
    expect([made.status, made.data.detail]).toEqual([422, 'The passkey could not be verified. Please try again.']);
  });

  it('a challenge lasts five minutes; the sweep removes the ones never answered', async () => {
    const owner = await signedInUser();
    const { authenticator } = await withPasskey(owner);
    const body = await answer('/api/auth/passkey', authenticator);
    await env.DB.prepare('UPDATE webauthn_challenges SET expires_at = ? WHERE id = ?')
      .bind(Date.now() - 1, body.challenge_id)
      .run();
    expect((await api('POST', '/api/auth/passkey', { json: body })).status).toBe(409);
    await sweepExpired(createServiceContext(env));
    expect(await env.DB.prepare('SELECT 1 FROM webauthn_challenges WHERE id = ?').bind(body.challenge_id).first()).toBeNull();
  });

  it('a check-in with no passkey yet says where to make one; a bad body is a 422 with a detail', async () => {
    const owner = await signedInUser();
    const none = await api('POST', '/api/canary/checkin/passkey/options', { token: owner.token });
    expect([none.status, none.data.detail]).toEqual([404, 'You have no passkey yet: make one on the Notifications page.']);
    const bad = await api('POST', '/api/passkeys', { token: owner.token, json: { challenge_id: 'x', response: {}, name: '' } });
    expect(bad.status).toBe(422);
    expect(bad.data.detail).toEqual(expect.anything());
  });
});
