import { ZPublicKeyJwk } from '@afterword/worker/contracts/e2ee';
import { describe, expect, it } from 'vitest';
import { FormatError } from './errors';
import { exportPrivatePkcs8, exportPublicJwk, generateKeyPair, importPrivatePkcs8, importPublicJwk, publicKeyFingerprint, publicKeyThumbprint } from './keys';

async function secret(priv: CryptoKey, pub: CryptoKey): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'ECDH', public: pub }, priv, 256));
}

describe('ECDH P-256 keys', () => {
  it('generates an extractable pair and exports the public key as exactly {kty, crv, x, y}', async () => {
    const pair = await generateKeyPair();
    expect(pair.privateKey.extractable).toBe(true);
    expect(pair.privateKey.algorithm).toEqual({ name: 'ECDH', namedCurve: 'P-256' });
    const jwk = await exportPublicJwk(pair.publicKey);
    expect(Object.keys(jwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(ZPublicKeyJwk.parse(jwk)).toEqual(jwk);
    await expect(exportPublicJwk(pair.privateKey)).rejects.toThrow(FormatError);
  });

  it('public JWK and PKCS#8 round trips keep the same ECDH secret', async () => {
    const a = await generateKeyPair();
    const b = await generateKeyPair();
    const aPub = await importPublicJwk(await exportPublicJwk(a.publicKey));
    const pkcs8 = await exportPrivatePkcs8(b.privateKey);
    const bPriv = await importPrivatePkcs8(pkcs8);
    expect(bPriv.extractable).toBe(false);
    expect(await secret(bPriv, aPub)).toEqual(await secret(a.privateKey, b.publicKey));
    await expect(exportPrivatePkcs8(a.publicKey)).rejects.toThrow(FormatError);
  });

  it('refuses a JWK with d, another curve, extra members, and points off the curve', async () => {
    const pair = await generateKeyPair();
    const priv = await crypto.subtle.exportKey('jwk', pair.privateKey);
    await expect(importPublicJwk(priv)).rejects.toThrow(FormatError);
    const pub = await exportPublicJwk(pair.publicKey);
    await expect(importPublicJwk({ ...pub, crv: 'P-384' })).rejects.toThrow(FormatError);
    await expect(importPublicJwk({ ...pub, kid: 'x' })).rejects.toThrow(FormatError);
    await expect(importPublicJwk({ ...pub, y: pub.x })).rejects.toThrow(/not a point on P-256/);
    await expect(importPrivatePkcs8(new Uint8Array(138))).rejects.toThrow(FormatError);
  });

  it('has a stable RFC 7638 thumbprint and a readable fingerprint', async () => {
    const jwk = await exportPublicJwk((await generateKeyPair()).publicKey);
    const t = await publicKeyThumbprint(jwk);
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await publicKeyThumbprint({ ...jwk })).toBe(t);
    expect(await publicKeyFingerprint(jwk)).toMatch(/^([0-9a-f]{4} ){15}[0-9a-f]{4}$/);
    expect(await publicKeyThumbprint(await exportPublicJwk((await generateKeyPair()).publicKey))).not.toBe(t);
  });

  it('computes the RFC 7638 thumbprint over the canonical JSON', async () => {
    // Independent check: hash the RFC 7638 member order by hand.
    const jwk = {
      kty: 'EC' as const,
      crv: 'P-256' as const,
      x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
      y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
    };
    const digest = new Uint8Array(
      await crypto.subtle.digest(
        'SHA-256',
        new TextEncoder().encode(
          '{"crv":"P-256","kty":"EC","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}',
        ),
      ),
    );
    const expected = btoa(String.fromCharCode(...digest))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    expect(await publicKeyThumbprint(jwk)).toBe(expected);
  });
});
