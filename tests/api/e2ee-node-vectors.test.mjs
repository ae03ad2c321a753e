// E2EE v1 interop without a browser (docs/security/e2ee.md §14). tests/support/e2ee-node.mjs is an
// independent node:crypto implementation written from the doc; here it
//  - opens web/src/crypto/fixtures/interop-v1.json, made by the browser module (WebCrypto),
//  - seals envelopes and wraps whose structure is checked against the zod contract itself
//    (worker/src/contracts/e2ee.ts, loaded through Node's type stripping) and field by field,
//  - refuses tampering with the same error kinds as the browser module.
// Needs no Worker: `node --test tests/api/e2ee-node-vectors.test.mjs`. Writes nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as contract from '../../worker/src/contracts/e2ee.ts';
import * as e2ee from '../support/e2ee-node.mjs';

const fixture = (name) => JSON.parse(readFileSync(new URL(`../../web/src/crypto/fixtures/${name}`, import.meta.url), 'utf8'));
const webFixture = fixture('interop-v1.json');
const nodeFixture = fixture('interop-node-v1.json');

const KID_A = '0b6f7d4e-2f55-4c3a-9a51-3f0f8a2d7c11';
const KID_B = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const KID_C = '16fd2706-8baf-433b-82eb-8c7fada847da';

/** Rejects with an E2eeNodeError of this code. */
async function rejectsWith(promise, code, label) {
  await assert.rejects(promise, (err) => err instanceof e2ee.E2eeNodeError && err.code === code, label);
}

/** One bit flipped in a base64url field (kept canonical, same length). */
function flip(text, byteIndex = 0) {
  const bytes = Buffer.from(text, 'base64url');
  bytes[byteIndex < 0 ? bytes.length + byteIndex : byteIndex] ^= 1;
  return bytes.toString('base64url');
}

async function openFixture(f) {
  const expectedD = f.private_jwk.d;
  const dOf = (key) => key.export({ format: 'jwk' }).d;
  assert.equal(dOf(e2ee.importPrivateKey(Buffer.from(f.private_pkcs8, 'base64url'))), expectedD);
  assert.deepEqual(e2ee.publicJwkOf(e2ee.importPrivateKey(f.private_jwk)), f.public_jwk);

  const fromPassword = await e2ee.unwrapPrivateKey(f.password_wrap, { password: f.password });
  assert.equal(dOf(fromPassword.privateKey), expectedD);
  // The fixture's password is not in NFKC form: opening with its normalised spelling proves both sides normalise alike.
  assert.notEqual(f.password, f.password.normalize('NFKC'));
  await e2ee.unwrapPrivateKey(f.password_wrap, { password: f.password.normalize('NFKC') });
  await rejectsWith(e2ee.unwrapPrivateKey(f.password_wrap, { password: `${f.password}!` }), 'wrong-key', 'wrong password');

  const fromRecovery = await e2ee.unwrapPrivateKey(f.recovery_wrap, { recoveryKey: f.recovery_key.toLowerCase().replace(/-/g, ' ') });
  assert.equal(dOf(fromRecovery.privateKey), expectedD);
  assert.equal(e2ee.formatRecoveryKey(e2ee.parseRecoveryKey(f.recovery_key)), f.recovery_key);
  await rejectsWith(e2ee.unwrapPrivateKey(f.recovery_wrap, { recoveryKey: (await e2ee.generateRecoveryKey()).text }), 'wrong-key', 'wrong recovery key');

  const { payload, contentKey } = await e2ee.openEnvelope(JSON.stringify(f.envelope), { kid: f.kid, privateKey: f.private_jwk });
  assert.deepEqual(payload, f.payload);
  const audio = await e2ee.openAudio(contentKey, payload.audio.iv, Buffer.from(f.audio.ciphertext, 'base64url'));
  assert.equal(audio.toString('base64url'), f.audio.plaintext);
  const [att] = payload.attachments;
  const file = await e2ee.decryptFile(att.key, att.iv, Buffer.from(f.attachment.ciphertext, 'base64url'));
  assert.equal(file.toString('base64url'), f.attachment.plaintext);
  assert.equal(file.length, att.size);
  await rejectsWith(e2ee.openEnvelope(f.envelope, { kid: f.other_kid, privateKey: fromPassword.privateKey }), 'wrong-key', 'another reader’s wrap');
  await rejectsWith(e2ee.openEnvelope(f.envelope, { kid: KID_C, privateKey: fromPassword.privateKey }), 'not-a-recipient', 'no wrap');
}

test('opens the fixture sealed by the browser module (web/src/crypto, WebCrypto)', async () => {
  assert.match(webFixture.made_by, /web\/src\/crypto/);
  await openFixture(webFixture);
});

test('opens its own committed fixture (the one the browser module opens in interop.test.ts)', async () => {
  assert.match(nodeFixture.made_by, /e2ee-node\.mjs/);
  await openFixture(nodeFixture);
});

test('AES-256-GCM known answer: McGrew–Viega GCM test case 15 decrypts through decryptFile (no AAD)', async () => {
  const key = Buffer.from('feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308', 'hex');
  const iv = Buffer.from('cafebabefacedbaddecaf888', 'hex');
  const ct = '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad';
  const tag = 'b094dac5d93471bdec1a502270e3cc6c';
  const pt = await e2ee.decryptFile(key, iv, Buffer.from(ct + tag, 'hex'));
  assert.equal(
    pt.toString('hex'),
    'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255',
  );
  await rejectsWith(e2ee.decryptFile(key, iv, Buffer.from(`${ct}${tag.slice(0, -1)}d`, 'hex')), 'tampered', 'altered tag');
});

test('Node-sealed envelopes, wraps and bundles satisfy the zod contract and the documented sizes', async () => {
  const alice = await e2ee.generateKeyPair();
  const bob = await e2ee.generateKeyPair();
  const contentKey = (await e2ee.encryptFile(Buffer.alloc(0))).key;
  const audio = await e2ee.sealAudio(contentKey, Buffer.from('audio'));
  const payload = { text: 'hello', audio: { iv: e2ee.b64u(audio.iv), type: 'audio/webm' } };
  const { envelope, contentKey: returned } = await e2ee.sealEnvelope({
    payload,
    contentKey,
    readers: [
      { kid: KID_B, publicKey: bob.publicJwk },
      { kid: KID_A, publicKey: alice.publicJwk },
    ],
  });
  assert.deepEqual(returned, contentKey);

  assert.deepEqual(contract.ZEnvelope.parse(envelope), envelope);
  const parsed = contract.parseEnvelope(JSON.stringify(envelope));
  assert.equal(parsed.ok, true, parsed.error);
  assert.deepEqual(Object.keys(envelope).sort(), ['alg', 'ct', 'iv', 'recipients', 'v']);
  assert.equal(envelope.v, contract.E2EE_VERSION);
  assert.equal(Buffer.from(envelope.iv, 'base64url').length, 12);
  assert.equal(Buffer.from(envelope.ct, 'base64url').length, Buffer.byteLength(JSON.stringify(payload)) + 16);
  for (const r of envelope.recipients) {
    assert.deepEqual(Object.keys(r).sort(), ['alg', 'epk', 'iv', 'kid', 'salt', 'wrapped']);
    assert.deepEqual(Object.keys(r.epk).sort(), ['crv', 'kty', 'x', 'y']);
    assert.equal(r.alg, 'ECDH-ES+HKDF-SHA256+A256GCM');
    assert.equal(Buffer.from(r.salt, 'base64url').length, 16);
    assert.equal(Buffer.from(r.iv, 'base64url').length, 12);
    assert.equal(Buffer.from(r.wrapped, 'base64url').length, 48);
  }
  assert.notEqual(envelope.recipients[0].epk.x, envelope.recipients[1].epk.x);
  assert.ok(!JSON.stringify(envelope).includes('hello'));

  const recovery = await e2ee.generateRecoveryKey();
  const bundle = {
    public_key: bob.publicJwk,
    password_wrap: await e2ee.wrapPrivateKey(bob.privateKey, { password: 'a long pass phrase' }, { iterations: 100_000 }),
    recovery_wrap: await e2ee.wrapPrivateKey(bob.pkcs8, { recoveryKey: recovery.bytes }),
  };
  assert.deepEqual(contract.ZKeyBundle.parse(bundle), bundle);
  assert.equal(Buffer.from(bundle.password_wrap.ct, 'base64url').length, bob.pkcs8.length + 16);
  assert.match(recovery.text, /^[A-Z2-7]{4}(-[A-Z2-7]{4}){12}$/);
  assert.match(recovery.text, /[AQ]$/);

  const file = await e2ee.encryptFile(Buffer.from('file'));
  assert.ok(contract.ZSealedPayload.parse({ text: '', attachments: [{ iv: file.ivText, key: file.keyText, name: 'a.txt', type: 'text/plain', size: 4 }] }));
  assert.equal(Buffer.from(file.ivBase64, 'base64').toString('base64url'), file.ivText);

  // Node opens what Node sealed, for each reader.
  assert.deepEqual(await e2ee.openMessage(envelope, { kid: KID_B, privateKey: bob.privateKey }), payload);
  const opened = await e2ee.openEnvelope(envelope, { kid: KID_A, privateKey: alice.pkcs8 });
  assert.equal((await e2ee.openAudio(opened.contentKey, opened.payload.audio.iv, audio.ciphertext)).toString(), 'audio');
});

test('tampering and wrong keys fail with the documented error kinds', async () => {
  const bob = await e2ee.generateKeyPair();
  const carol = await e2ee.generateKeyPair();
  const { envelope } = await e2ee.sealEnvelope({ payload: { text: 'secret' }, readers: [{ kid: KID_B, publicKey: bob.publicJwk }] });
  const w = envelope.recipients[0];
  const withWrap = (patch) => ({ ...envelope, recipients: [{ ...w, ...patch }] });
  const reader = { kid: KID_B, privateKey: bob.privateKey };
  const cases = [
    ['ct', { ...envelope, ct: flip(envelope.ct, 1) }, 'tampered'],
    ['tag', { ...envelope, ct: flip(envelope.ct, -1) }, 'tampered'],
    ['iv', { ...envelope, iv: flip(envelope.iv) }, 'tampered'],
    ['epk (another point)', withWrap({ epk: carol.publicJwk }), 'wrong-key'],
    ['epk (off the curve)', withWrap({ epk: { ...w.epk, y: w.epk.x } }), 'wrong-key'],
    ['salt', withWrap({ salt: flip(w.salt) }), 'wrong-key'],
    ['wrap iv', withWrap({ iv: flip(w.iv) }), 'wrong-key'],
    ['wrapped', withWrap({ wrapped: flip(w.wrapped, 3) }), 'wrong-key'],
  ];
  for (const [label, forged, code] of cases) await rejectsWith(e2ee.openEnvelope(forged, reader), code, label);
  await rejectsWith(e2ee.openEnvelope(envelope, { kid: KID_B, privateKey: carol.privateKey }), 'wrong-key', 'wrong private key');
  await rejectsWith(e2ee.openEnvelope(envelope, { kid: KID_A, privateKey: bob.privateKey }), 'not-a-recipient', 'no wrap');
  await rejectsWith(
    e2ee.openEnvelope({ ...envelope, recipients: [{ ...w, kid: KID_A }] }, { kid: KID_A, privateKey: bob.privateKey }),
    'wrong-key',
    'relabelled wrap (kid is the AAD)',
  );

  const malformed = [
    ['non-JSON', '{"v":1'],
    ['v 2', { ...envelope, v: 2 }],
    ['padded iv', { ...envelope, iv: `${envelope.iv}==` }],
    ['iv 11 bytes', { ...envelope, iv: Buffer.alloc(11).toString('base64url') }],
    ['epk with d', withWrap({ epk: { ...w.epk, d: bob.privateJwk.d } })],
    ['zero recipients', { ...envelope, recipients: [] }],
    ['five recipients', { ...envelope, recipients: [w, w, w, w, w] }],
  ];
  for (const [label, input] of malformed) {
    await rejectsWith(e2ee.openEnvelope(input, reader), 'format', label);
    assert.equal(contract.parseEnvelope(typeof input === 'string' ? input : JSON.stringify(input)).ok, false, `contract accepts ${label}`);
  }

  const wrapped = await e2ee.wrapPrivateKey(bob.privateKey, { password: 'pw pw pw pw' }, { iterations: 100_000 });
  await rejectsWith(e2ee.unwrapPrivateKey({ ...wrapped, ct: flip(wrapped.ct, 7) }, { password: 'pw pw pw pw' }), 'wrong-key', 'altered wrap');
  await rejectsWith(e2ee.unwrapPrivateKey(wrapped, { recoveryKey: (await e2ee.generateRecoveryKey()).text }), 'wrong-key', 'recovery key for a password wrap');
  for (const bad of ['', 'ABCD', '0'.repeat(52), 'B'.repeat(52)])
    assert.throws(
      () => e2ee.parseRecoveryKey(bad),
      (err) => err.code === 'malformed-recovery-key',
      bad,
    );
});
