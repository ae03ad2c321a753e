import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { KEYS_EXIST, NO_KEYS_YET, RECOVERY_KEY_REPLACED } from '../src/domains/e2ee/key-bundles';
import { api, signedInUser } from './helpers/api';
import { b64u, keyBundle as bundle, passwordWrap, recoveryWrap } from './helpers/e2ee';

const trpcQuery = (proc: string, input: unknown, token?: string) =>
  api('GET', `/api/trpc/${proc}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, { token });

async function keyRow(userId: string) {
  return env.DB.prepare('SELECT * FROM user_keys WHERE user_id = ?').bind(userId).first<Record<string, any>>();
}

describe('PUT and GET /api/keys/me', () => {
  it('404s before the account has keys, stores the first bundle (201) and reads it back', async () => {
    const user = await signedInUser();
    const none = await api('GET', '/api/keys/me', { token: user.token });
    expect(none).toMatchObject({ status: 404, data: { detail: NO_KEYS_YET } });

    const b = bundle();
    const put = await api('PUT', '/api/keys/me', { token: user.token, json: b });
    expect(put.status).toBe(201);
    expect(put.data).toEqual({ ...b, recovery_saved_at: null, created_at: expect.any(String) });
    const got = await api('GET', '/api/keys/me', { token: user.token });
    expect(got).toMatchObject({ status: 200, data: put.data });

    const row = await keyRow(user.id);
    expect(JSON.parse(row!.public_key)).toEqual(b.public_key);
    expect(JSON.parse(row!.password_wrap)).toEqual(b.password_wrap);
    expect(JSON.parse(row!.recovery_wrap)).toEqual(b.recovery_wrap);
  });

  it('refuses a second bundle with 409 and keeps the first', async () => {
    const user = await signedInUser();
    const first = bundle();
    expect((await api('PUT', '/api/keys/me', { token: user.token, json: first })).status).toBe(201);
    const again = await api('PUT', '/api/keys/me', { token: user.token, json: bundle() });
    expect(again).toMatchObject({ status: 409, data: { detail: KEYS_EXIST } });
    expect((await api('GET', '/api/keys/me', { token: user.token })).data.public_key).toEqual(first.public_key);
  });

  it('lets only one of two racing first bundles win', async () => {
    const user = await signedInUser();
    const results = await Promise.all([bundle(), bundle()].map((b) => api('PUT', '/api/keys/me', { token: user.token, json: b })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  const bad: [string, (b: ReturnType<typeof bundle>) => unknown, (string | number)[]][] = [
    ['a private key (d)', (b) => ({ ...b, public_key: { ...b.public_key, d: b64u(32) } }), ['body', 'public_key']],
    ['an RSA key', (b) => ({ ...b, public_key: { ...b.public_key, kty: 'RSA' } }), ['body', 'public_key', 'kty']],
    ['a P-384 curve', (b) => ({ ...b, public_key: { ...b.public_key, crv: 'P-384' } }), ['body', 'public_key', 'crv']],
    ['x of 31 bytes', (b) => ({ ...b, public_key: { ...b.public_key, x: b64u(31) } }), ['body', 'public_key', 'x']],
    ['y in standard base64 with padding', (b) => ({ ...b, public_key: { ...b.public_key, y: btoa('x'.repeat(32)) } }), ['body', 'public_key', 'y']],
    ['password_wrap with the recovery HKDF', (b) => ({ ...b, password_wrap: recoveryWrap() }), ['body', 'password_wrap']],
    ['recovery_wrap with PBKDF2', (b) => ({ ...b, recovery_wrap: passwordWrap() }), ['body', 'recovery_wrap']],
    [
      'too few PBKDF2 iterations',
      (b) => ({ ...b, password_wrap: { ...b.password_wrap, kdf: { ...b.password_wrap.kdf, iterations: 1000 } } }),
      ['body', 'password_wrap', 'kdf', 'iterations'],
    ],
    ['a wrap of version 2', (b) => ({ ...b, password_wrap: { ...b.password_wrap, v: 2 } }), ['body', 'password_wrap', 'v']],
    ['a wrap with a short iv', (b) => ({ ...b, recovery_wrap: { ...b.recovery_wrap, iv: b64u(8) } }), ['body', 'recovery_wrap', 'iv']],
    ['no recovery_wrap', (b) => ({ public_key: b.public_key, password_wrap: b.password_wrap }), ['body', 'recovery_wrap']],
  ];
  it.each(bad)('refuses %s with 422 and stores nothing', async (_name, mutate, loc) => {
    const user = await signedInUser();
    const res = await api('PUT', '/api/keys/me', { token: user.token, json: mutate(bundle()) });
    expect(res.status).toBe(422);
    expect(res.data.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
    expect(await keyRow(user.id)).toBeNull();
  });

  it('needs a session', async () => {
    expect((await api('GET', '/api/keys/me')).status).toBe(401);
    expect((await api('PUT', '/api/keys/me', { json: bundle() })).status).toBe(401);
  });
});

describe('the recovery key: replaced with the password, saved when the owner says so', () => {
  async function ownerWithKeys() {
    const owner = await signedInUser();
    const first = bundle();
    expect((await api('PUT', '/api/keys/me', { token: owner.token, json: first })).status).toBe(201);
    return { owner, first };
  }
  const replace = (owner: { token: string; password: string }, wrap = recoveryWrap(), password = owner.password) =>
    api('PUT', '/api/keys/me/recovery', { token: owner.token, json: { current_password: password, recovery_wrap: wrap } });

  it('a new bundle starts with its recovery key not saved; saying it is saved records when', async () => {
    const keyless = await signedInUser();
    expect(await api('GET', '/api/keys/me/recovery', { token: keyless.token })).toMatchObject({
      status: 200,
      data: { has_keys: false, recovery_saved_at: null },
    });
    const { owner, first } = await ownerWithKeys();
    expect((await api('GET', '/api/keys/me', { token: owner.token })).data.recovery_saved_at).toBeNull();
    expect((await api('GET', '/api/keys/me/recovery', { token: owner.token })).data).toEqual({ has_keys: true, recovery_saved_at: null });
    const saved = await api('POST', '/api/keys/me/recovery/saved', { token: owner.token, json: { recovery_ct: first.recovery_wrap.ct } });
    expect(saved.status).toBe(200);
    expect(Date.parse(saved.data.recovery_saved_at)).toBeGreaterThan(Date.now() - 60_000);
    expect((await api('GET', '/api/keys/me', { token: owner.token })).data.recovery_saved_at).toBe(saved.data.recovery_saved_at);
    expect((await api('GET', '/api/keys/me/recovery', { token: owner.token })).data).toEqual({
      has_keys: true,
      recovery_saved_at: saved.data.recovery_saved_at,
    });
  });

  it('the owner replaces the recovery key with their password: the old wrap is gone, the new key counts as not saved', async () => {
    const { owner, first } = await ownerWithKeys();
    await api('POST', '/api/keys/me/recovery/saved', { token: owner.token, json: { recovery_ct: first.recovery_wrap.ct } });
    const wrap = recoveryWrap();
    const res = await replace(owner, wrap);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ recovery_wrap: wrap, recovery_saved_at: null, password_wrap: first.password_wrap, public_key: first.public_key });
    expect(JSON.parse((await keyRow(owner.id))!.recovery_wrap)).toEqual(wrap);
  });

  it('a wrong password is a 422 on the field and leaves the recovery key as it was', async () => {
    const { owner, first } = await ownerWithKeys();
    const res = await replace(owner, recoveryWrap(), 'not the password at all');
    expect(res.status).toBe(422);
    expect(res.data.detail[0]).toMatchObject({ loc: ['body', 'current_password'], type: 'wrong_password' });
    expect(JSON.parse((await keyRow(owner.id))!.recovery_wrap)).toEqual(first.recovery_wrap);
  });

  it('refuses a password wrap in place of a recovery wrap (422) and an account without keys (422)', async () => {
    const { owner } = await ownerWithKeys();
    expect((await replace(owner, passwordWrap() as unknown as ReturnType<typeof recoveryWrap>)).status).toBe(422);
    const keyless = await signedInUser();
    const res = await replace(keyless);
    expect(res.status).toBe(422);
    expect(res.data.detail[0]).toMatchObject({ loc: ['body', 'recovery_wrap'], msg: NO_KEYS_YET });
  });

  it('a tick for a key that a newer one replaced is refused (409) and marks nothing saved', async () => {
    const { owner, first } = await ownerWithKeys();
    expect((await replace(owner)).status).toBe(200);
    const stale = await api('POST', '/api/keys/me/recovery/saved', { token: owner.token, json: { recovery_ct: first.recovery_wrap.ct } });
    expect(stale).toMatchObject({ status: 409, data: { detail: RECOVERY_KEY_REPLACED } });
    expect((await api('GET', '/api/keys/me', { token: owner.token })).data.recovery_saved_at).toBeNull();
  });

  it("is the caller's own: an outsider's session changes nothing of the owner's, and no session is 401", async () => {
    const { owner, first } = await ownerWithKeys();
    const outsider = await signedInUser();
    expect((await api('POST', '/api/keys/me/recovery/saved', { token: outsider.token, json: { recovery_ct: first.recovery_wrap.ct } })).status).toBe(404);
    expect((await replace({ token: outsider.token, password: outsider.password })).status).toBe(422);
    expect(JSON.parse((await keyRow(owner.id))!.recovery_wrap)).toEqual(first.recovery_wrap);
    expect((await keyRow(owner.id))!.recovery_saved_at).toBeNull();
    expect((await api('PUT', '/api/keys/me/recovery', { json: { current_password: 'x', recovery_wrap: recoveryWrap() } })).status).toBe(401);
    expect((await api('POST', '/api/keys/me/recovery/saved', { json: { recovery_ct: first.recovery_wrap.ct } })).status).toBe(401);
    expect((await api('GET', '/api/keys/me/recovery')).status).toBe(401);
  });
});

describe('GET /api/keys/{userId}', () => {
  it('gives any signed-in caller the public key only', async () => {
    const [owner, sender] = await Promise.all([signedInUser(), signedInUser()]);
    const b = bundle();
    await api('PUT', '/api/keys/me', { token: owner.token, json: b });
    const res = await api('GET', `/api/keys/${owner.id}`, { token: sender.token });
    expect(res).toMatchObject({ status: 200, data: { user_id: owner.id, public_key: b.public_key } });
    expect(Object.keys(res.data).sort()).toEqual(['public_key', 'user_id']);
    // The id is matched case-insensitively, like every id in the API.
    expect((await api('GET', `/api/keys/${owner.id.toUpperCase()}`, { token: sender.token })).data.user_id).toBe(owner.id);
  });

  it('404s for a user without keys, an unknown user and a malformed id; 401 without a session', async () => {
    const [owner, sender] = await Promise.all([signedInUser(), signedInUser()]);
    expect((await api('GET', `/api/keys/${owner.id}`, { token: sender.token })).status).toBe(404);
    expect((await api('GET', `/api/keys/${crypto.randomUUID()}`, { token: sender.token })).status).toBe(404);
    expect((await api('GET', '/api/keys/not-a-uuid', { token: sender.token })).status).toBe(404);
    expect((await api('GET', `/api/keys/${owner.id}`)).status).toBe(401);
  });
});

describe('keys over tRPC', () => {
  it('keys.create, keys.me and keys.forUser use the same services and errors', async () => {
    const [owner, other] = await Promise.all([signedInUser(), signedInUser()]);
    expect((await trpcQuery('keys.me', undefined, owner.token)).status).toBe(404);
    const b = bundle();
    const created = await api('POST', '/api/trpc/keys.create', { token: owner.token, json: b });
    expect(created.status).toBe(200);
    expect(created.data.result.data).toMatchObject(b);
    expect((await api('POST', '/api/trpc/keys.create', { token: owner.token, json: bundle() })).status).toBe(409);
    expect((await trpcQuery('keys.me', undefined, owner.token)).data.result.data.password_wrap).toEqual(b.password_wrap);
    const forUser = await trpcQuery('keys.forUser', { user_id: owner.id }, other.token);
    expect(forUser.data.result.data).toEqual({ user_id: owner.id, public_key: b.public_key });
    expect((await trpcQuery('keys.forUser', { user_id: other.id }, owner.token)).status).toBe(404);
    expect((await trpcQuery('keys.forUser', { user_id: 'nope' }, owner.token)).status).toBe(422);
    const badBundle = await api('POST', '/api/trpc/keys.create', { token: other.token, json: { ...b, public_key: { ...b.public_key, d: b64u(32) } } });
    expect(badBundle.status).toBe(422);
    expect(await keyRow(other.id)).toBeNull();
  });

  it('keys.lookup answers the public key, or null for a user without keys or an unknown id (never 404)', async () => {
    const [owner, other] = await Promise.all([signedInUser(), signedInUser()]);
    const b = bundle();
    expect((await api('PUT', '/api/keys/me', { token: owner.token, json: b })).status).toBe(201);
    expect((await trpcQuery('keys.lookup', { user_id: owner.id.toUpperCase() }, other.token)).data.result.data).toEqual({
      user_id: owner.id,
      public_key: b.public_key,
    });
    expect((await trpcQuery('keys.lookup', { user_id: other.id }, owner.token)).data.result.data).toEqual({ user_id: other.id, public_key: null });
    const unknown = crypto.randomUUID();
    expect((await trpcQuery('keys.lookup', { user_id: unknown }, owner.token)).data.result.data).toEqual({ user_id: unknown, public_key: null });
    expect((await trpcQuery('keys.lookup', { user_id: 'nope' }, owner.token)).status).toBe(422);
    expect((await trpcQuery('keys.lookup', { user_id: owner.id })).status).toBe(401);
  });
});
