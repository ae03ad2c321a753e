import { ZKeyBundle, ZWrappedPrivateKey, type TWrappedPrivateKey } from '@afterword/worker/contracts/e2ee';
import { describe, expect, it } from 'vitest';
import { FormatError, MalformedRecoveryKeyError, WrongKeyError } from './errors';
import { createKeyBundle } from './key-bundle';
import { exportPrivatePkcs8, exportPublicJwk, generateKeyPair, importPublicJwk } from './keys';
import { rewrapPrivateKey, unwrapPrivateKey, unwrapPrivateKeyPkcs8, wrapPrivateKey } from './private-key-wrap';
import { generateRecoveryKey } from './recovery-key';
import { flipB64u } from './test-helpers';

const FAST = { iterations: 100_000 };
const PASSWORD = 'correct horse battery staple';

async function secret(priv: CryptoKey, pub: CryptoKey): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'ECDH', public: pub }, priv, 256));
}

describe('private key wrap', () => {
  it('password wrap at the full 600,000 iterations: valid v1 shape, opens to the same key', async () => {
    const pair = await generateKeyPair();
    const wrapped = await wrapPrivateKey(pair.privateKey, { password: PASSWORD });
    expect(ZWrappedPrivateKey.parse(wrapped)).toEqual(wrapped);
    expect(wrapped.kdf).toMatchObject({ name: 'PBKDF2', hash: 'SHA-256', iterations: 600_000 });
    const opened = await unwrapPrivateKey(JSON.stringify(wrapped), { password: PASSWORD });
    expect(opened.extractable).toBe(false);
    const other = await generateKeyPair();
    expect(await secret(opened, other.publicKey)).toEqual(await secret(pair.privateKey, other.publicKey));
  });

  it('a wrong password is a WrongKeyError, never garbage', async () => {
    const wrapped = await wrapPrivateKey((await generateKeyPair()).privateKey, { password: PASSWORD }, FAST);
    await expect(unwrapPrivateKey(wrapped, { password: `${PASSWORD}!` })).rejects.toThrow(WrongKeyError);
    await expect(unwrapPrivateKey(wrapped, { password: 'Correct horse battery staple' })).rejects.toThrow(/wrong password/);
  });

  it('recovery wrap opens with the typed key in any accepted spelling, refuses a wrong or malformed one', async () => {
    const pair = await generateKeyPair();
    const pkcs8 = await exportPrivatePkcs8(pair.privateKey);
    const recovery = await generateRecoveryKey();
    const wrapped = await wrapPrivateKey(pkcs8, { recoveryKey: recovery.text });
    expect(wrapped.kdf).toEqual({ name: 'HKDF', hash: 'SHA-256', salt: wrapped.kdf.salt, info: 'afterword/e2ee/v1/recovery' });
    expect(await unwrapPrivateKeyPkcs8(wrapped, { recoveryKey: recovery.text.toLowerCase().replace(/-/g, ' ') })).toEqual(pkcs8);
    expect(await unwrapPrivateKeyPkcs8(wrapped, { recoveryKey: recovery.bytes })).toEqual(pkcs8);
    await expect(unwrapPrivateKey(wrapped, { recoveryKey: (await generateRecoveryKey()).text })).rejects.toThrow(WrongKeyError);
    await expect(unwrapPrivateKey(wrapped, { recoveryKey: 'ABCD-EFGH' })).rejects.toThrow(MalformedRecoveryKeyError);
    await expect(unwrapPrivateKey(wrapped, { password: PASSWORD })).rejects.toThrow(WrongKeyError);
  });

  it('any altered byte of ct, iv or salt, or a changed iteration count, is a WrongKeyError', async () => {
    const wrapped = await wrapPrivateKey((await generateKeyPair()).privateKey, { password: PASSWORD }, FAST);
    const kdf = wrapped.kdf as Extract<TWrappedPrivateKey['kdf'], { name: 'PBKDF2' }>;
    const variants: TWrappedPrivateKey[] = [
      { ...wrapped, ct: flipB64u(wrapped.ct, 3) },
      { ...wrapped, ct: flipB64u(wrapped.ct, -1) }, // the tag
      { ...wrapped, iv: flipB64u(wrapped.iv) },
      { ...wrapped, kdf: { ...kdf, salt: flipB64u(kdf.salt) } },
      { ...wrapped, kdf: { ...kdf, iterations: kdf.iterations + 1 } },
    ];
    for (const v of variants) await expect(unwrapPrivateKey(v, { password: PASSWORD })).rejects.toThrow(WrongKeyError);
  });

  it('refuses malformed wraps with FormatError', async () => {
    const wrapped = await wrapPrivateKey((await generateKeyPair()).privateKey, { password: PASSWORD }, FAST);
    for (const bad of [
      '{',
      JSON.stringify({ ...wrapped, v: 2 }),
      JSON.stringify({ ...wrapped, iv: wrapped.iv.slice(2) }),
      JSON.stringify({ ...wrapped, alg: 'A128GCM' }),
    ]) {
      await expect(unwrapPrivateKey(bad, { password: PASSWORD })).rejects.toThrow(FormatError);
    }
    await expect(wrapPrivateKey(new Uint8Array(138), { password: PASSWORD })).rejects.toThrow(FormatError);
  });

  it('password change re-wraps the same private key; the old password stops working; recovery sets a new password', async () => {
    const pair = await generateKeyPair();
    const pkcs8 = await exportPrivatePkcs8(pair.privateKey);
    const wrapped = await wrapPrivateKey(pkcs8, { password: 'old password 1' }, FAST);
    const changed = await rewrapPrivateKey(wrapped, { password: 'old password 1' }, { password: 'new password 2' }, FAST);
    expect(changed.iv).not.toBe(wrapped.iv);
    expect(await unwrapPrivateKeyPkcs8(changed, { password: 'new password 2' })).toEqual(pkcs8);
    await expect(unwrapPrivateKey(changed, { password: 'old password 1' })).rejects.toThrow(WrongKeyError);

    const recovery = await generateRecoveryKey();
    const recoveryWrap = await wrapPrivateKey(pkcs8, { recoveryKey: recovery.bytes });
    const restored = await rewrapPrivateKey(recoveryWrap, { recoveryKey: recovery.text }, { password: 'after reset 3' }, FAST);
    expect(await unwrapPrivateKeyPkcs8(restored, { password: 'after reset 3' })).toEqual(pkcs8);
  });

  it('createKeyBundle makes a valid ZKeyBundle whose two wraps open to the key behind public_key', async () => {
    const { bundle, recoveryKey, privateKey } = await createKeyBundle(PASSWORD, FAST);
    expect(ZKeyBundle.parse(bundle)).toEqual(bundle);
    expect(recoveryKey).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){12}$/);
    expect(privateKey.extractable).toBe(false);
    const peer = await generateKeyPair();
    const expected = await secret(privateKey, peer.publicKey);
    const publicKey = await importPublicJwk(bundle.public_key);
    expect(await secret(peer.privateKey, publicKey)).toEqual(expected);
    expect(await secret(await unwrapPrivateKey(bundle.password_wrap, { password: PASSWORD }), peer.publicKey)).toEqual(expected);
    expect(await secret(await unwrapPrivateKey(bundle.recovery_wrap, { recoveryKey }), peer.publicKey)).toEqual(expected);
    expect(JSON.stringify(bundle)).not.toContain(recoveryKey.replace(/-/g, ''));
    expect(await exportPublicJwk(publicKey)).toEqual(bundle.public_key);
  });
});
