/*
 * Cross-implementation vectors (docs/security/e2ee.md §14).
 * - fixtures/interop-node-v1.json was made by tests/support/e2ee-node.mjs (node:crypto, written from the
 *   doc alone): the browser module must open every part of it.
 * - fixtures/interop-v1.json was made by this module; tests/api/e2ee-node-vectors.test.mjs opens it with
 *   the Node implementation. Here it is only re-opened as a sanity check. Regenerate it (rarely) with
 *   E2EE_WRITE_FIXTURE=1 pnpm --filter @afterword/web exec vitest run src/crypto/interop.test.ts
 */
import { ZEnvelope, ZKeyBundle, type TEnvelope, type TPublicKeyJwk, type TSealedPayload, type TWrappedPrivateKey } from '@afterword/worker/contracts/e2ee';
import { describe, expect, it } from 'vitest';
import { decryptFile, encryptFile } from './attachment';
import { base64urlToBytes, bytesToBase64url } from './encoding';
import { NotARecipientError, WrongKeyError } from './errors';
import { generateContentKey, openAudio, openEnvelope, sealAudio, sealMessage } from './envelope';
import { exportPrivatePkcs8, exportPublicJwk, generateKeyPair, importPrivatePkcs8 } from './keys';
import { unwrapPrivateKeyPkcs8, wrapPrivateKey } from './private-key-wrap';
import { generateRecoveryKey } from './recovery-key';
import nodeFixture from './fixtures/interop-node-v1.json';
import webFixture from './fixtures/interop-v1.json';

interface Fixture {
  made_by: string;
  kid: string;
  other_kid: string;
  public_jwk: TPublicKeyJwk;
  private_jwk: TPublicKeyJwk & { d: string };
  private_pkcs8: string;
  password: string;
  password_wrap: TWrappedPrivateKey;
  recovery_key: string;
  recovery_wrap: TWrappedPrivateKey;
  payload: TSealedPayload;
  envelope: TEnvelope;
  audio: { plaintext: string; ciphertext: string };
  attachment: { plaintext: string; ciphertext: string };
}

async function privateJwkOf(pkcs8: Uint8Array): Promise<JsonWebKey> {
  return crypto.subtle.exportKey('jwk', await importPrivatePkcs8(pkcs8, true));
}

/** Opens every part of a fixture with this module. */
async function openFixture(f: Fixture): Promise<void> {
  expect(ZKeyBundle.parse({ public_key: f.public_jwk, password_wrap: f.password_wrap, recovery_wrap: f.recovery_wrap })).toBeTruthy();
  expect(ZEnvelope.parse(f.envelope)).toEqual(f.envelope);

  // The private key: PKCS#8 and JWK `d` describe the same key, and both wraps open to it.
  const expectedJwk = await privateJwkOf(base64urlToBytes(f.private_pkcs8));
  expect(expectedJwk.d).toBe(f.private_jwk.d);
  expect([expectedJwk.x, expectedJwk.y]).toEqual([f.public_jwk.x, f.public_jwk.y]);
  const fromPassword = await unwrapPrivateKeyPkcs8(f.password_wrap, { password: f.password });
  expect((await privateJwkOf(fromPassword)).d).toBe(f.private_jwk.d);
  await expect(unwrapPrivateKeyPkcs8(f.password_wrap, { password: `${f.password} ` })).rejects.toThrow(WrongKeyError);
  const fromRecovery = await unwrapPrivateKeyPkcs8(f.recovery_wrap, { recoveryKey: f.recovery_key.toLowerCase() });
  expect((await privateJwkOf(fromRecovery)).d).toBe(f.private_jwk.d);

  // The envelope, its audio and its attachment.
  const privateKey = await importPrivatePkcs8(fromRecovery);
  const opened = await openEnvelope(JSON.stringify(f.envelope), { kid: f.kid, privateKey });
  expect(opened.payload).toEqual(f.payload);
  const audio = await openAudio(opened.contentKey, opened.payload.audio!.iv, base64urlToBytes(f.audio.ciphertext));
  expect(bytesToBase64url(audio)).toBe(f.audio.plaintext);
  const att = opened.payload.attachments![0]!;
  const file = await decryptFile(att.key, att.iv, base64urlToBytes(f.attachment.ciphertext));
  expect(bytesToBase64url(file)).toBe(f.attachment.plaintext);
  expect(file).toHaveLength(att.size);
  // The other reader's wrap is there but is not ours.
  await expect(openEnvelope(f.envelope, { kid: f.other_kid, privateKey })).rejects.toThrow(WrongKeyError);
  await expect(openEnvelope(f.envelope, { kid: '00000000-0000-4000-8000-000000000000', privateKey })).rejects.toThrow(NotARecipientError);
}

describe('interop with the independent Node implementation', () => {
  it('opens the committed fixture made by tests/support/e2ee-node.mjs (wraps, envelope, audio, attachment)', async () => {
    expect(nodeFixture.made_by).toMatch(/e2ee-node\.mjs/);
    await openFixture(nodeFixture as Fixture);
  });

  it('re-opens its own committed fixture (the one the Node test opens)', async () => {
    expect(webFixture.made_by).toMatch(/web\/src\/crypto/);
    await openFixture(webFixture as Fixture);
  });
});

// ---- the generator (skipped unless E2EE_WRITE_FIXTURE=1) ----------------------------------------------

const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};

async function makeWebFixture(): Promise<Fixture> {
  const kid = 'a4b1c2d3-e4f5-4a6b-8c7d-8e9f0a1b2c3d';
  const otherKid = 'b5c6d7e8-f9a0-4b1c-9d2e-3f4a5b6c7d8e';
  // Combining accent and a full-width letter: both sides must NFKC-normalise to open the password wrap.
  const password = 'cre\u0300me \uff22rûlée ✉ 7';
  const me = await generateKeyPair();
  const other = await generateKeyPair();
  const pkcs8 = await exportPrivatePkcs8(me.privateKey);
  const { kty, crv, x, y, d } = await crypto.subtle.exportKey('jwk', me.privateKey);
  const recovery = await generateRecoveryKey();
  const audio = new TextEncoder().encode('webm fake audio bytes for the interop fixture '.repeat(20));
  const fileBytes = new TextEncoder().encode('PNG fake attachment bytes\n'.repeat(30));
  const file = await encryptFile(fileBytes);
  const contentKey = await generateContentKey();
  const sealedAudio = await sealAudio(contentKey, audio);
  const payload: TSealedPayload = {
    text: 'Made by web/src/crypto — pour toi, 🕯️ 日本語',
    audio: { iv: bytesToBase64url(sealedAudio.iv), type: 'audio/webm' },
    attachments: [{ iv: file.ivText, key: file.keyText, name: 'photo.png', type: 'image/png', size: fileBytes.length }],
  };
  const { envelope } = await sealMessage({
    payload,
    contentKey,
    readers: [
      { kid, publicKey: await exportPublicJwk(me.publicKey) },
      { kid: otherKid, publicKey: await exportPublicJwk(other.publicKey) },
    ],
  });
  return {
    made_by: 'web/src/crypto (WebCrypto)',
    kid,
    other_kid: otherKid,
    public_jwk: await exportPublicJwk(me.publicKey),
    private_jwk: { kty: kty as 'EC', crv: crv as 'P-256', x: x!, y: y!, d: d! },
    private_pkcs8: bytesToBase64url(pkcs8),
    password,
    password_wrap: await wrapPrivateKey(pkcs8, { password }),
    recovery_key: recovery.text,
    recovery_wrap: await wrapPrivateKey(pkcs8, { recoveryKey: recovery.bytes }),
    payload,
    envelope,
    audio: { plaintext: bytesToBase64url(audio), ciphertext: bytesToBase64url(sealedAudio.ciphertext) },
    attachment: { plaintext: bytesToBase64url(fileBytes), ciphertext: bytesToBase64url(file.ciphertext) },
  };
}

it.runIf(env.E2EE_WRITE_FIXTURE === '1')('writes fixtures/interop-v1.json', async () => {
  const fixture = await makeWebFixture();
  await openFixture(fixture);
  const ordered = { description: 'Afterword E2EE v1 interop fixture (docs/security/e2ee.md). Test data only: these keys protect nothing.', ...fixture };
  // node:fs is loaded by a computed specifier: web/ has no Node types, and this branch only runs under vitest.
  const specifier = 'node:fs/promises';
  const fs = (await import(/* @vite-ignore */ specifier)) as { writeFile(path: string, data: string): Promise<void> };
  // A path string, not a URL: under happy-dom `URL` is the DOM's class, which node:fs does not accept.
  // (`here` is a variable so Vite does not rewrite `new URL(literal, import.meta.url)` into an asset URL.)
  const here = import.meta.url;
  const path = decodeURIComponent(new URL('fixtures/interop-v1.json', here).pathname);
  await fs.writeFile(path, `${JSON.stringify(ordered, null, 2)}\n`);
});
