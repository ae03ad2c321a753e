import { ZEnvelope, type TEnvelope, type TPublicKeyJwk, type TSealedPayload } from '@afterword/worker/contracts/e2ee';
import { beforeAll, describe, expect, it } from 'vitest';
import { aesGcmEncrypt } from './aes-gcm';
import { base64urlToBytes, bytesToBase64url, utf8Encode } from './encoding';
import { type E2eeError, FormatError, NotARecipientError, TamperedError, WrongKeyError } from './errors';
import { exportPublicJwk, generateKeyPair } from './keys';
import { generateContentKey, openAudio, openEnvelope, openMessage, readEnvelope, sealAudio, sealMessage } from './envelope';
import { flipB64u, KID_A, KID_B, KID_C } from './test-helpers';

interface Person {
  kid: string;
  pair: CryptoKeyPair;
  jwk: TPublicKeyJwk;
}
let alice: Person; // sender
let bob: Person; // recipient
let carol: Person; // not a reader

async function person(kid: string): Promise<Person> {
  const pair = await generateKeyPair();
  return { kid, pair, jwk: await exportPublicJwk(pair.publicKey) };
}

const payload: TSealedPayload = { text: 'If you read this, I am gone. Ich liebe dich — 🕯️' };

async function sealed(): Promise<TEnvelope> {
  return (
    await sealMessage({
      payload,
      readers: [
        { kid: bob.kid, publicKey: bob.jwk },
        { kid: alice.kid, publicKey: alice.jwk },
      ],
    })
  ).envelope;
}

beforeAll(async () => {
  [alice, bob, carol] = await Promise.all([person(KID_A), person(KID_B), person(KID_C)]);
});

describe('sealMessage / openMessage', () => {
  it('seals for the recipient and the sender; both open it, as JSON text or as an object', async () => {
    const envelope = await sealed();
    expect(ZEnvelope.parse(envelope)).toEqual(envelope);
    expect(envelope).toMatchObject({ v: 1, alg: 'A256GCM' });
    expect(envelope.recipients.map((r) => r.kid)).toEqual([KID_B, KID_A]);
    expect(await openMessage(JSON.stringify(envelope), { kid: bob.kid, privateKey: bob.pair.privateKey })).toEqual(payload);
    expect(await openMessage(envelope, { kid: alice.kid, privateKey: alice.pair.privateKey })).toEqual(payload);
    expect(await openMessage(envelope, { kid: bob.kid.toUpperCase(), privateKey: bob.pair.privateKey })).toEqual(payload);
  });

  it('every field has its exact size, and each reader gets its own ephemeral key, salt and IV', async () => {
    const envelope = await sealed();
    expect(base64urlToBytes(envelope.iv)).toHaveLength(12);
    expect(base64urlToBytes(envelope.ct)).toHaveLength(utf8Encode(JSON.stringify(payload)).length + 16);
    for (const r of envelope.recipients) {
      expect(r.alg).toBe('ECDH-ES+HKDF-SHA256+A256GCM');
      expect(Object.keys(r.epk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
      expect(base64urlToBytes(r.salt)).toHaveLength(16);
      expect(base64urlToBytes(r.iv)).toHaveLength(12);
      expect(base64urlToBytes(r.wrapped)).toHaveLength(48);
    }
    const [a, b] = envelope.recipients;
    expect(a!.epk.x).not.toBe(b!.epk.x);
    expect(a!.salt).not.toBe(b!.salt);
    expect(JSON.stringify(envelope)).not.toContain('liebe');
  });

  it('seals audio and attachments under one content key; openEnvelope hands the key back for openAudio', async () => {
    const contentKey = await generateContentKey();
    const audio = crypto.getRandomValues(new Uint8Array(5000));
    const sealedAudio = await sealAudio(contentKey, audio);
    const full: TSealedPayload = {
      text: 'with audio',
      audio: { iv: bytesToBase64url(sealedAudio.iv), type: 'audio/webm' },
      attachments: [
        { iv: bytesToBase64url(new Uint8Array(12)), key: bytesToBase64url(new Uint8Array(32).fill(7)), name: 'will.pdf', type: 'application/pdf', size: 1234 },
      ],
    };
    const { envelope, contentKey: returned } = await sealMessage({ payload: full, contentKey, readers: [{ kid: bob.kid, publicKey: bob.jwk }] });
    expect(returned).toBe(contentKey);
    const opened = await openEnvelope(envelope, { kid: bob.kid, privateKey: bob.pair.privateKey });
    expect(opened.payload).toEqual(full);
    expect(await openAudio(opened.contentKey, opened.payload.audio!.iv, sealedAudio.ciphertext)).toEqual(audio);
    const tampered = new Uint8Array(sealedAudio.ciphertext);
    tampered[100]! ^= 1;
    await expect(openAudio(opened.contentKey, opened.payload.audio!.iv, tampered)).rejects.toThrow(TamperedError);
  });

  it('keeps audio and content apart: sealed audio does not open as the envelope content (different AAD)', async () => {
    const { envelope, contentKey } = await sealMessage({ payload, readers: [{ kid: bob.kid, publicKey: bob.jwk }] });
    const swapped = await sealAudio(contentKey, utf8Encode(JSON.stringify(payload)));
    const forged = { ...envelope, iv: bytesToBase64url(swapped.iv), ct: bytesToBase64url(swapped.ciphertext) };
    await expect(openMessage(forged, { kid: bob.kid, privateKey: bob.pair.privateKey })).rejects.toThrow(TamperedError);
  });

  it('someone with no wrap gets NotARecipientError; a wrong private key under the right kid gets WrongKeyError', async () => {
    const envelope = await sealed();
    await expect(openMessage(envelope, { kid: carol.kid, privateKey: carol.pair.privateKey })).rejects.toThrow(NotARecipientError);
    await expect(openMessage(envelope, { kid: bob.kid, privateKey: carol.pair.privateKey })).rejects.toThrow(WrongKeyError);
    await expect(openMessage(envelope, { kid: bob.kid, privateKey: bob.pair.publicKey })).rejects.toThrow(FormatError);
  });

  it('tampering with ct, tag, iv, epk, salt, wrapped, or a moved wrap fails with a typed error', async () => {
    const envelope = await sealed();
    const wrap = envelope.recipients[0]!;
    const withWrap = (w: Partial<typeof wrap>): TEnvelope => ({ ...envelope, recipients: [{ ...wrap, ...w }, envelope.recipients[1]!] });
    const cases: [string, TEnvelope, new (m: string) => E2eeError][] = [
      ['ct', { ...envelope, ct: flipB64u(envelope.ct, 2) }, TamperedError],
      ['tag', { ...envelope, ct: flipB64u(envelope.ct, -1) }, TamperedError],
      ['iv', { ...envelope, iv: flipB64u(envelope.iv, 11) }, TamperedError],
      ['epk (another valid point)', withWrap({ epk: carol.jwk }), WrongKeyError],
      ['epk (off the curve)', withWrap({ epk: { ...wrap.epk, y: wrap.epk.x } }), WrongKeyError],
      ['salt', withWrap({ salt: flipB64u(wrap.salt) }), WrongKeyError],
      ['wrap iv', withWrap({ iv: flipB64u(wrap.iv) }), WrongKeyError],
      ['wrapped key', withWrap({ wrapped: flipB64u(wrap.wrapped, 5) }), WrongKeyError],
      ['wrapped tag', withWrap({ wrapped: flipB64u(wrap.wrapped, -1) }), WrongKeyError],
    ];
    for (const [name, forged, error] of cases) {
      await expect(openMessage(forged, { kid: bob.kid, privateKey: bob.pair.privateKey }), name).rejects.toThrow(error);
    }
    // Bob's wrap relabelled as Alice's: the kid is the AAD, so it does not open for her slot.
    const relabelled: TEnvelope = { ...envelope, recipients: [{ ...wrap, kid: alice.kid }] };
    await expect(openMessage(relabelled, { kid: alice.kid, privateKey: bob.pair.privateKey })).rejects.toThrow(WrongKeyError);
  });

  it('an authenticated payload that is not a ZSealedPayload is a FormatError, not a half-read message', async () => {
    const { envelope, contentKey } = await sealMessage({ payload, readers: [{ kid: bob.kid, publicKey: bob.jwk }] });
    for (const bad of ['{"txt":"x"}', 'not json', '{"text": 5}']) {
      const c = await aesGcmEncrypt(contentKey, utf8Encode(bad), utf8Encode('afterword/e2ee/v1'));
      const forged = { ...envelope, iv: bytesToBase64url(c.iv), ct: bytesToBase64url(c.ciphertext) };
      await expect(openMessage(forged, { kid: bob.kid, privateKey: bob.pair.privateKey }), bad).rejects.toThrow(FormatError);
    }
  });

  it('sealMessage refuses 0 or 5 readers, duplicates, non-UUID kids, private JWKs and invalid payloads', async () => {
    const r = (p: Person) => ({ kid: p.kid, publicKey: p.jwk });
    await expect(sealMessage({ payload, readers: [] })).rejects.toThrow(FormatError);
    const five = await Promise.all(Array.from({ length: 5 }, () => person(crypto.randomUUID())));
    await expect(sealMessage({ payload, readers: five.map(r) })).rejects.toThrow(/1–4 readers/);
    expect((await sealMessage({ payload, readers: five.slice(0, 4).map(r) })).envelope.recipients).toHaveLength(4);
    await expect(sealMessage({ payload, readers: [r(bob), r(bob)] })).rejects.toThrow(/only once/);
    await expect(sealMessage({ payload, readers: [{ kid: 'bob', publicKey: bob.jwk }] })).rejects.toThrow(FormatError);
    const priv = (await crypto.subtle.exportKey('jwk', bob.pair.privateKey)) as unknown as TPublicKeyJwk;
    await expect(sealMessage({ payload, readers: [{ kid: bob.kid, publicKey: priv }] })).rejects.toThrow(FormatError);
    await expect(sealMessage({ payload: { text: 5 } as unknown as TSealedPayload, readers: [r(bob)] })).rejects.toThrow(FormatError);
    await expect(sealMessage({ payload: { text: 'x'.repeat(400_000) }, readers: [r(bob)] })).rejects.toThrow(FormatError);
  });
});

describe('envelope parser', () => {
  it('refuses malformed inputs with FormatError', async () => {
    const good = await sealed();
    const w = good.recipients[0]!;
    const priv = await crypto.subtle.exportKey('jwk', bob.pair.privateKey);
    const five = Array.from({ length: 5 }, () => w);
    const bad: [string, unknown][] = [
      ['non-JSON', '{"v":1,'],
      ['JSON array', '[]'],
      ['v 2', { ...good, v: 2 }],
      ['v "1"', { ...good, v: '1' }],
      ['alg', { ...good, alg: 'A128GCM' }],
      ['iv with +', { ...good, iv: `${good.iv.slice(0, -1)}+` }],
      ['iv padded', { ...good, iv: `${good.iv}==` }],
      ['iv 11 bytes', { ...good, iv: bytesToBase64url(new Uint8Array(11)) }],
      ['iv 13 bytes', { ...good, iv: bytesToBase64url(new Uint8Array(13)) }],
      ['ct too short', { ...good, ct: bytesToBase64url(new Uint8Array(15)) }],
      ['salt 15 bytes', { ...good, recipients: [{ ...w, salt: bytesToBase64url(new Uint8Array(15)) }] }],
      ['wrapped 32 bytes', { ...good, recipients: [{ ...w, wrapped: bytesToBase64url(new Uint8Array(32)) }] }],
      ['epk with d', { ...good, recipients: [{ ...w, epk: { ...w.epk, d: priv.d } }] }],
      ['epk P-384', { ...good, recipients: [{ ...w, epk: { ...w.epk, crv: 'P-384' } }] }],
      ['wrap alg', { ...good, recipients: [{ ...w, alg: 'ECDH-ES' }] }],
      ['kid not a UUID', { ...good, recipients: [{ ...w, kid: 'bob' }] }],
      ['zero recipients', { ...good, recipients: [] }],
      ['five recipients', { ...good, recipients: five }],
      ['missing ct', { v: 1, alg: 'A256GCM', iv: good.iv, recipients: good.recipients }],
    ];
    for (const [name, input] of bad) {
      expect(() => readEnvelope(typeof input === 'string' ? input : JSON.stringify(input)), name).toThrow(FormatError);
      expect(() => readEnvelope(input), name).toThrow(FormatError);
      await expect(openMessage(input, { kid: bob.kid, privateKey: bob.pair.privateKey }), name).rejects.toThrow(FormatError);
    }
    expect(readEnvelope(JSON.stringify(good))).toEqual(good);
  });
});
