import { PBKDF2_ITERATIONS } from '@afterword/worker/contracts/e2ee';
import { describe, expect, it } from 'vitest';
import { aesGcmDecrypt, aesGcmEncrypt } from './aes-gcm';
import { FormatError, TamperedError } from './errors';
import { deriveRecoveryWrapKey, derivePasswordWrapKey, hkdfAesKey, newSalt } from './kdf';

const FAST = 100_000; // the contract's floor; the full 600k is exercised once in private-key-wrap.test.ts
const msg = new Uint8Array([1, 2, 3, 4]);

async function sameKey(a: CryptoKey, b: CryptoKey): Promise<boolean> {
  const sealed = await aesGcmEncrypt(a, msg);
  try {
    await aesGcmDecrypt(b, sealed.iv, sealed.ciphertext);
    return true;
  } catch (err) {
    if (err instanceof TamperedError) return false;
    throw err;
  }
}

describe('password KDF (PBKDF2-HMAC-SHA-256)', () => {
  it('uses the OWASP 2023 iteration count by default', () => {
    expect(PBKDF2_ITERATIONS).toBe(600_000);
  });

  it('derives a non-extractable AES-GCM-256 key; same inputs → same key, other salt/password/count → other key', async () => {
    const salt = newSalt();
    const k = await derivePasswordWrapKey('hunter2 hunter2', salt, FAST);
    expect(k.extractable).toBe(false);
    expect(k.algorithm).toEqual({ name: 'AES-GCM', length: 256 });
    expect(await sameKey(k, await derivePasswordWrapKey('hunter2 hunter2', salt, FAST))).toBe(true);
    expect(await sameKey(k, await derivePasswordWrapKey('hunter2 hunter3', salt, FAST))).toBe(false);
    expect(await sameKey(k, await derivePasswordWrapKey('hunter2 hunter2', newSalt(), FAST))).toBe(false);
    expect(await sameKey(k, await derivePasswordWrapKey('hunter2 hunter2', salt, FAST + 1))).toBe(false);
  });

  it('NFKC-normalises the password (as the server does), so precomposed/combining accents and full-width forms unlock the same key', async () => {
    const salt = newSalt();
    const precomposed = 'caf\u00e9';
    const combining = 'cafe\u0301';
    expect(await sameKey(await derivePasswordWrapKey(precomposed, salt, FAST), await derivePasswordWrapKey(combining, salt, FAST))).toBe(true);
    expect(await sameKey(await derivePasswordWrapKey('ＡＢＣ１２３', salt, FAST), await derivePasswordWrapKey('ABC123', salt, FAST))).toBe(true);
  });

  it('refuses an empty password, a salt that is not 16 bytes and out-of-range counts', async () => {
    await expect(derivePasswordWrapKey('', newSalt(), FAST)).rejects.toThrow(FormatError);
    await expect(derivePasswordWrapKey('x', new Uint8Array(8), FAST)).rejects.toThrow(FormatError);
    await expect(derivePasswordWrapKey('x', newSalt(), 1000)).rejects.toThrow(FormatError);
  });
});

describe('HKDF-SHA-256', () => {
  it('separates purposes by info and salt', async () => {
    const ikm = crypto.getRandomValues(new Uint8Array(32));
    const salt = newSalt();
    const k = await deriveRecoveryWrapKey(ikm, salt);
    expect(await sameKey(k, await hkdfAesKey(ikm, salt, 'afterword/e2ee/v1/recovery'))).toBe(true);
    expect(await sameKey(k, await hkdfAesKey(ikm, salt, 'afterword/e2ee/v1/wrap'))).toBe(false);
    expect(await sameKey(k, await deriveRecoveryWrapKey(ikm, newSalt()))).toBe(false);
    await expect(deriveRecoveryWrapKey(new Uint8Array(31), salt)).rejects.toThrow(FormatError);
  });
});
